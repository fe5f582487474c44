// Async iterators over cursor pages.
export async function* offsetPages(base: string, maxRecords: number) {
  let seen = 0;
  let res = await http.fetch(base); //@hosts(api.airtable.com)
  for (;;) {
    const page = await res.json();
    const records: unknown[] = page.records ?? [];
    for (const r of records) {
      if (seen++ >= maxRecords) return;
      yield r;
    }
    if (!page.offset) return;
    const next = new URL(base);
    next.searchParams.set("offset", page.offset);
    res = await http.fetch(next); //@hosts(api.airtable.com)
  }
}

export async function* linkPages(first: string, init: RequestInit) {
  let url: string | null = first;
  while (url) {
    const res = await http.fetch(url, init); //@hosts(api.notion.com)
    const body = await res.json();
    yield* body.results ?? [];
    url = body.next_url ?? null;
    if (url) {
      const more = await http.fetch(url, init); //@hosts(DYNAMIC)
      const b2 = await more.json();
      yield* b2.results ?? [];
      url = b2.next_url ?? null;
    }
  }
}
