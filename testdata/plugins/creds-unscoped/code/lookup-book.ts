// lookupBook: the book, then its cover from the CDN.
interface Book {
  title: string;
  covers?: number[];
}

export default async function lookupBook(input: { isbn: string }) {
  const res = await http.fetch(`https://api.openlibrary.org/isbn/${input.isbn}.json`);
  const book = (await res.json()) as Book;
  const cover = book.covers?.[0];
  const img = cover ? await http.fetch(`https://covers.example-cdn.net/b/id/${cover}-M.jpg`) : null;
  return { type: "stat", value: book.title, label: img?.ok ? "with cover" : "no cover" };
}
