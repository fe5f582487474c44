import { API } from "./lib/client";

type Purger = (zone: string, urls: string[]) => Promise<unknown>;

const purgers: Record<"cloudflare" | "fastly" | "bunny", Purger> = {
  cloudflare: (zone, urls) => API.NewClient().makeRequest("POST", `/zones/${zone}/purge_cache`, { files: urls }),
  fastly: async (zone, urls) => {
    const results = [];
    for (const u of urls) {
      const res = await http.fetch(`https://api.fastly.com/purge/${u.replace(/^https?:\/\//, "")}`, { method: "POST", headers: { "Fastly-Soft-Purge": "1" } }); //@hosts(api.fastly.com)
      results.push(res.status);
    }
    return { zone, results };
  },
  bunny: async (zone, urls) => {
    const u = new URL("https://api.bunny.net/purge");
    u.searchParams.set("url", urls[0] ?? "");
    const res = await http.fetch(u.href, { method: "POST" }); //@hosts(api.bunny.net)
    return { zone, status: res.status };
  },
};

export default async function PurgeCache({ zone, urls, provider }: { zone: string; urls: string[]; provider: keyof typeof purgers }) {
  return purgers[provider](zone, urls);
}
