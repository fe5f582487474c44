// lookupBook: find a book by ISBN on Open Library.
interface Input {
  isbn: string;
}

interface Book {
  title: string;
  number_of_pages?: number;
}

const API = "https://api.openlibrary.org";

export default async function lookupBook(input: Input) { /*@hint("✓ Title: The Hobbit · 12 ms · 2 fetches (1 refused)")*/ /*@lens("export default", "✓ Title: The Hobbit · 12 ms · 2 fetches (1 refused) · ▶ Run again")*/ /*@command("export default", "plugin.runTool", {"file": "code/lookup-book.ts", "tool": "lookupBook"})*/ /*@hover("|export default", "**function tool** `fn.lookupBook`", "**Last run of lookupBook**")*/ /*@diag("export default", "fetch-refused-at-run", "evil.example is not in capabilities.fetch")*/
  const isbn = input.isbn.replace(/-/g, ""); //@nohover("isbn.replace")
  // The Authorization header is filled from the brokered secret host-side.
  const res = await http.fetch(`${API}/isbn/${isbn}.json`); //@hover("http.fe|tch", "**host method** `http.fetch`")
  if (!res.ok) {
    throw new Error(`Open Library answered ${res.status} for ISBN ${isbn}`);
  }
  const book = (await res.json()) as Book;
  console.log("found", book.title);
  return { type: "stat", value: book.title, label: "Title" };
}
