export default async function cover(input: { id: number }) {
  const res = await http.fetch(`https://covers.library.example/b/${input.id}.json`);
  return res.ok ? await res.json() : null;
}
