// probe: one request; the broker adds the credentials host-side.
export default async function probe(input: { path?: string }) {
  const res = await http.fetch(`https://api.example.com/${input?.path ?? "status"}`);
  return { type: "stat", value: res.status, label: "status" };
}
