async function* pages(first: string) {
  let res = await http.fetch(first, { headers: { Authorization: "ShippoToken placeholder" } }); //@hosts(api.goshippo.com)
  let body = await res.json();
  yield* body.results ?? [];
  while (body.next) {
    res = await http.fetch(body.next, { headers: { Authorization: "ShippoToken placeholder" } }); //@hosts(DYNAMIC)
    body = await res.json();
    yield* body.results ?? [];
  }
}

export default async function shipments({ results = 25 }: { results?: number }) {
  const all = [];
  for await (const s of pages(`https://api.goshippo.com/shipments/?results=${results}&page=1`)) all.push(s);
  return { count: all.length };
}
