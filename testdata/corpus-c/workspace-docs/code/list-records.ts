import { offsetPages } from "./lib/paginate";

export default async function listRecords({ baseId, table, max = 300 }: { baseId: string; table: string; max?: number }) {
  const out = [];
  for await (const r of offsetPages(`https://api.airtable.com/v0/${baseId}/${encodeURIComponent(table)}?pageSize=100`, max)) out.push(r);
  return { count: out.length, records: out };
}
