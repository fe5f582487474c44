export default async function status() {
  const res = await http.fetch("https://status.example.com/v1/summary?region=eu&verbose=1");
  return { up: res.ok, status: res.status };
}
