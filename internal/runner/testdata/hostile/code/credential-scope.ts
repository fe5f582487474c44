// The credential is scoped to api.example.com: other.example.com gets none.
export default async () => {
  const res = await http.fetch("https://other.example.com/echo");
  return await res.text();
};
