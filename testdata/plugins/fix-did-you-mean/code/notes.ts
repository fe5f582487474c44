// notes: what we know about a city, and its Open Library subjects.
export default async function notes(input: { city: string }) {
  const rows = await collections.qurey("notes", { city: input.city });
  const res = await http.get(`https://api.openlibrary.org/subjects/${input.city}.json`);
  return { type: "markdown", text: `${rows.length} notes; ${(await res.json()).work_count} works` };
}
