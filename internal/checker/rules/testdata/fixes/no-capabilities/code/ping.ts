export default async function ping() {
  const res = await http.fetch("https://status.example.com/ping");
  return { type: "markdown", text: String(res.status) };
}
