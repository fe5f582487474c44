// addNote: store a note under a fresh id.
interface Note {
  id: string;
  text: string;
  tags: string[];
  created: number;
}

export default async function addNote(input: { text: string; tags?: string[] }): Promise<{ type: "markdown"; text: string }> {
  const counter = ((await collections.get("meta", "counter")) as number | null) ?? 0;
  const id = `n${counter + 1}`;
  const note: Note = { id, text: input.text, tags: input.tags ?? [], created: Date.now() };
  await collections.put("notes", id, note);
  await collections.put("meta", "counter", counter + 1);
  return { type: "markdown", text: `Saved note **${id}**` };
}
