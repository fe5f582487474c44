// saveFavourite: keep a book in the "favourites" collection.
export default async function saveFavourite(input: { isbn: string; note?: string }) {
  const existing = await collections.get("favourites", input.isbn);
  const entry = { isbn: input.isbn, note: input.note ?? "", saved: existing ? existing.saved + 1 : 1 };
  await collections.put("favourites", input.isbn, entry);
  return { type: "markdown", text: `Saved **${input.isbn}** (${entry.saved}×)` };
}
