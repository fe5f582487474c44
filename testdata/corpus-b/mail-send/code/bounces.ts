import { RequestBuilder, send } from "./lib/request-builder";

export default async function bounces(input: { count?: number }) {
  const req = RequestBuilder.to("https://api.postmarkapp.com/")
    .query("count", input.count ?? 50)
    .query("offset", 0)
    .header("Accept", "application/json");
  const u = new URL(req.url);
  u.pathname = "/bounces";
  const res = await http.fetch(new Request(u, { headers: { Accept: "application/json" } })); //@hosts(api.postmarkapp.com)
  return { bounces: (await res.json()).items ?? [], sent: await send(req.build()) };
}
