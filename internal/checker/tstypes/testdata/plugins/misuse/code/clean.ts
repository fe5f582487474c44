export default async function clean(input: Input<"clean">) {
  const url = new URL("https://api.openlibrary.org/search.json");
  url.searchParams.set("q", input.q.trim());
  const res = await http.fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) throw new Error(`search failed: ${res.status} ${res.statusText}`);
  const data = (await res.json()) as { docs: { title: string }[] };
  console.log("found", data.docs.length, res.headers.get("content-type") ?? "?");
  const bytes = new TextEncoder().encode(input.q).length;
  await new Promise<void>((resolve) => setTimeout(resolve, 1));
  return { titles: data.docs.map((d) => d.title), bytes, b64: btoa(input.q) };
}
