// rerank: order results by a keyword score.
type Hit = { title: string; snippet: string };

export default function rerank(input: { query: string; hits: Hit[] }) {
  const words = input.query.toLowerCase().split(/\s+/);
  const score = (h: Hit) => words.filter((w) => (h.title + " " + h.snippet).toLowerCase().includes(w)).length;
  const sorted = [...input.hits].sort((a, b) => score(b) - score(a));
  return { type: "table", columns: ["Title"], rows: sorted.map((h) => [h.title]) };
}
