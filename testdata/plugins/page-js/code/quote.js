// quote: plain JavaScript, with an optional-call on the host.
const BASE = "https://zenquotes.io/api";

export default async function quote({ today = false } = {}) {
  const res = await http?.fetch?.(today ? `${BASE}/today` : `${BASE}/random`);
  const [q] = await res.json();
  const other = await http.fetch("https://type.fit/api/quotes");
  return { type: "markdown", text: `> ${q.q}\n— ${q.a} (${other.status})` };
}
