export default async function (input: { id: string }) {
  const id = input?.id ?? "none";
  const base = { a: 1 };
  return { ...base, id, ["k" + 1]: true, __proto__: null };
}
