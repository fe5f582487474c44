// tools: notes.save
const save = {
  description: "Save a note",
  requires: ["storage.kv"],
  execute: async ({ text }, ctx) => ctx.kv.put("note", text),
};
export const tools = { "notes.save": save };
save.requires.push("fs.write"); //@ requires of native tool "notes.save"
