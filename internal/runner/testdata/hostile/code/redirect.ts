// A 302 comes back as it is; the broker never follows it.
export default async () => {
  const res = await http.fetch("https://api.example.com/redirect");
  return { status: res.status, location: res.headers["location"] };
};
