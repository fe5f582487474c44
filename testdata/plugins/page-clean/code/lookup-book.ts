// lookupBook: a realistic page that the checker must find clean.
import type { Book } from "./types";

const OL = "https://openlibrary.org";
const COVERS = new URL("/b/id/", "https://covers.openlibrary.org");

interface Input {
  isbn: string;
}

function coverOf(id: number): string {
  return `${COVERS.href}${id}-M.jpg`;
}

export default async function lookupBook({ isbn }: Input) {
  const clean = isbn.replace(/[^0-9X]/gi, "");
  const res = await http.fetch(`${OL}/isbn/${clean}.json`, { headers: { Accept: "application/json" } });
  if (!res.ok) {
    return { type: "markdown", text: `No book for ISBN ${clean} (${res.status})` };
  }
  const book = (await res.json()) as Book & { covers?: number[] };
  const cover = book.covers?.length ? await http.fetch(coverOf(book.covers[0]), { method: "HEAD" }) : undefined;
  return { type: "stat", value: book.title, label: cover?.ok ? "Title (with cover)" : "Title" };
}
