// deleteNote: the input is the note id itself (a plain string).
export default async function deleteNote(id: string) {
  await collections.delete("notes", id);
  return { type: "markdown", text: `Deleted ${id}` };
}
