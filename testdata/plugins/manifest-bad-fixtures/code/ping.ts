// ping: the status endpoint.
export default async function ping(input: { region?: string }) {
  const res = await http.fetch(`https://status.example.com/v1/${input?.region ?? "eu"}`);
  return { type: "stat", value: res.status, label: "status" };
}
