export default async () => {
  const res = await http.fetch("https://slow.example.com/wait");
  return res.status;
};
