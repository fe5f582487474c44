// headlines: the wire's front page.
interface Story {
  title: string;
  url: string;
}

export default async function headlines(input: { limit?: number }) {
  const res = await http.fetch(`https://wire.example.com/front?limit=${input?.limit ?? 10}`);
  const stories = (await res.json()) as Story[];
  return { type: "table", columns: ["Headline"], rows: stories.map((s) => [s.title]) };
}
