export default async function proxy(input: { url: string }) {
  const res = await http.fetch(input.url);
  return { type: "markdown", text: await res.text() };
}
