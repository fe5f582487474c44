export default async function borrow(input: { id: number }) {
  const res = await http.fetch("https://api.library.example/v2/loans", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id: input.id }),
  });
  return { ok: res.ok };
}
