// URLs built by small helpers, and URLs only known at run time.
const V2 = "https://api.declared.dev/v2";

function itemsUrl(page: number): string {
  return `${V2}/items?page=${page}`;
}

const coverUrl = (id: number) => "https://covers.example.com/b/" + id + ".jpg";

function mirror(fast: boolean) {
  if (fast) {
    return "https://fast.mirror.example.com/x";
  }
  return "https://slow.mirror.example.com/x";
}

export default async function computed(input: { url: string; id: number; fast: boolean }) {
  await http.fetch(itemsUrl(1));
  await http.fetch(coverUrl(input.id));
  await http.fetch(String("https://string-call.example.com/"));
  await http.fetch("https://concat-call.example.com/".concat(String(input.id)));
  await http.fetch(input.fast ? "https://cond.example.com/a" : "https://cond.example.com/b");
  await http.fetch(new URL("https://href.example.com/p").href);
  await http.fetch(input.url);
  await http.fetch(mirror(input.fast));
  let later = "https://let.example.com/";
  await http.fetch(later);
  await http.fetch("https://" + input.url);
  return { type: "markdown", text: "ok" };
}
