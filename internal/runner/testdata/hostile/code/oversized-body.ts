export default async () => {
  const res = await http.fetch("https://big.example.com/blob");
  return (await res.text()).length;
};
