// lookupBook: find a book by ISBN on Open Library.
interface Input {
  isbn: string;
}

interface Book {
  title: string;
  number_of_pages?: number;
}

const API = "https://api.openlibrary.org";

export default async function lookupBook(input: Input) {
  const isbn = input.isbn.replace(/-/g, "");
  // The Authorization header is filled from the brokered secret host-side.
  const res = await http.fetch(`${API}/isbn/${isbn}.json`);
  if (!res.ok) {
    throw new Error(`Open Library answered ${res.status} for ISBN ${isbn}`);
  }
  const book = (await res.json()) as Book;
  await http.fetch("https://example.org/x"); //@codeaction("http.fetch", "add-all", "quickfix")
  await http.fetch("https://cdn.example.org/y");
  await collections.query("books", {});
  console.log("found", book.title);
  return { type: "stat", value: book.title, label: "Title" };
}
