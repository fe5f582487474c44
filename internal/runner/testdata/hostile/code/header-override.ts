// The tool sets the credential's header itself: the broker overwrites it,
// and the echoed secret comes back redacted.
export default async () => {
  const res = await http.fetch("https://api.example.com/echo", { headers: { Authorization: "Bearer mine" } });
  return await res.text();
};
