// hello: greets, remembering the last name greeted.
export default async function hello(name: string) {
  const last = await collections.get("greetings", "last");
  return { type: "markdown", text: `Hello ${name}! (last time: ${last ?? "nobody"})` };
}
