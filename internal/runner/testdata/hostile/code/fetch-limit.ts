// More than 64 fetches in a run: the rest are refused.
export default async () => {
  let ok = 0, refused = 0;
  for (let i = 0; i < 70; i++) {
    try { await http.fetch("https://api.example.com/v1/items"); ok++; } catch (e) { refused++; }
  }
  return { ok, refused };
};
