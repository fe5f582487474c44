export default async () => {
  const urls = [1, 2, 3].map((i) => `https://api.example.com/v1/items/${i}`);
  const all = await Promise.all(urls.map((u) => http.fetch(u).then((r) => r.json())));
  return all.map((x: any) => x.id);
};
