// searchBooks: search by title, then fetch the first covers in parallel.
type Doc = { title: string; author_name?: string[]; cover_i?: number };

function coverUrl(id: number): string {
  return "https://covers.openlibrary.org/b/id/" + id + "-S.json";
}

export default async function searchBooks(input: Input<"searchBooks">) {
  const limit = input.limit ?? 3;
  const res = await http.fetch(`https://api.openlibrary.org/search.json?q=${encodeURIComponent(input.q)}`);
  const data = (await res.json()) as { docs: Doc[] };
  const docs = data.docs.slice(0, limit);
  const covers = await Promise.all(
    docs.filter((d) => d.cover_i !== undefined).map((d) => http.fetch(coverUrl(d.cover_i!))),
  );
  return {
    type: "table",
    columns: ["Title", "Author", "Cover"],
    rows: docs.map((d, i) => [d.title, (d.author_name ?? []).join(", "), covers[i]?.status ?? "-"]),
  };
}
