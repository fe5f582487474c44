// Everything a tool could look at: no secret value anywhere.
export default async () => {
  const g = globalThis as any;
  const seen: string[] = Object.getOwnPropertyNames(g);
  const res = await http.fetch("https://api.example.com/v1/items");
  seen.push(JSON.stringify(res.headers), await res.text());
  console.log(seen.join(" "));
  return seen.join(" ").includes("sk-live");
};
