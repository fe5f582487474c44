// shelve: collections only.
type Shelf = { isbns: string[] };

export default async function shelve(input: { isbn: string; shelf: string }) {
  const shelf = ((await collections.get("shelves", input.shelf)) ?? { isbns: [] }) as Shelf;
  if (!shelf.isbns.includes(input.isbn)) {
    shelf.isbns.push(input.isbn);
    await collections.put("shelves", input.shelf, shelf);
  }
  return { type: "markdown", text: `${input.isbn} is on ${input.shelf} (${shelf.isbns.length} books)` };
}
