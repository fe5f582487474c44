// favourites: a mix of declared, undeclared and unknown host methods.
const { put, query: find } = collections;
const store = globalThis.collections;

export default async function favourites(input: { isbn: string; key: string }) {
  const saved = await collections.get("favourites", input.isbn);
  await put("favourites", input.isbn, { saved: 1 });
  await find("favourites", { saved: 1 });
  await store.delete("favourites", "old");
  const listed = await collections.list("favourites");
  const res = await http.get("https://api.books.dev/isbn/1");
  await http.post("https://api.books.dev/isbn/1", { body: "{}" });
  await http[input.key]("https://api.books.dev/isbn/1");
  return { type: "markdown", text: JSON.stringify({ saved, listed, status: res.status }) };
}
