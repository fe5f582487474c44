// The tool every sandbox of scripts/bench-peers.sh runs: our lookupBook
// (testdata/example/books) in plain JavaScript.
async function lookupBook(input) {
  const isbn = input.isbn.replace(/-/g, "");
  const res = await http.fetch("https://api.openlibrary.org/isbn/" + isbn + ".json");
  if (!res.ok) throw new Error("Open Library answered " + res.status + " for ISBN " + isbn);
  const book = await res.json();
  console.log("found", book.title);
  return { type: "stat", value: book.title, label: "Title" };
}
