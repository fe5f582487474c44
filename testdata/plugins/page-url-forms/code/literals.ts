// Every literal form of a fetch URL. Each host below is undeclared on
// purpose, so that the checker has to find (and place) every one.
const HOST = "tmpl-const.example.com";
const BASE = `https://${HOST}`;
const API = "https://concat.example.com";
const FULL = "https://const-ident.example.com/full";
const ROOT = "https://new-url.example.com/api/";

export default async function literals(input: { id: string }) {
  await http.fetch("https://double.example.com/a");
  await http.fetch('https://single.example.com/b');
  await http.fetch(`https://template.example.com/c`);
  await http.fetch(`${BASE}/d`);
  await http.fetch(`https://prefix.example.com/items/${input.id}`);
  await http.fetch(API + "/e/" + input.id);
  await http.fetch(FULL);
  await http.fetch(new URL("v1/f", ROOT));
  await http.fetch(new URL(`/g/${input.id}`, ROOT).toString());
  await http.fetch("https://api.declared.dev/ok");
  return { type: "markdown", text: "done" };
}
