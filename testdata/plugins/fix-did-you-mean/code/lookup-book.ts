export default async function lookupBook(input: { isbn: string }) {
  const res = await http.fetch(`https://api.openlibrary.org/isbn/${input.isbn}.json`);
  return { type: "markdown", text: (await res.json()).title };
}
