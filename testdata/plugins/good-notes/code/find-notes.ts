// findNotes: notes carrying a tag (all notes without one).
type Note = { id: string; text: string; tags: string[] };

export default async function findNotes(input: { tag?: string }) {
  const all = (await collections.query("notes", {})) as Note[];
  const hits = input.tag ? all.filter((n) => n.tags.includes(input.tag!)) : all;
  return { type: "table", columns: ["Id", "Text"], rows: hits.map((n) => [n.id, n.text]) };
}
