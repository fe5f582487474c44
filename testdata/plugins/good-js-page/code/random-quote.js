// randomQuote: plain JavaScript pages work too.
export default async function randomQuote() {
  const res = await http.fetch(`https://zenquotes.io/api/random?t=${Date.now()}`);
  const [q] = await res.json();
  return { type: "markdown", text: `> ${q.q}\n\n— ${q.a}` };
}
