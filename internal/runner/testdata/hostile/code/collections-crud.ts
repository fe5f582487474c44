export default async () => {
  await collections.put("notes", "b", { tag: "x", n: 2 });
  await collections.put("notes", "c", { tag: "y", n: 3 });
  const removed = await collections.delete("notes", "a");
  const again = await collections.delete("notes", "a");
  const tagged = await collections.query("notes", { tag: "x" });
  const one = await collections.get("notes", "c");
  const none = await collections.get("notes", "zzz");
  return { removed, again, tagged, one, none };
};
