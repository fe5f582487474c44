type Item = { id: number; name: string };
export default async (input: { n: number }) => {
  const res = await http.fetch("https://api.example.com/v1/items");
  const items = (await res.json()) as Item[];
  console.info("got", items.length, "items");
  return items.slice(0, input.n).map((i) => i.name);
};
