import { Residency } from "./sites";

const EXPORT_HOSTS: Record<Residency, string> = {
  [Residency.US]: "data.mixpanel.com",
  [Residency.EU]: "data-eu.mixpanel.com",
  [Residency.IN]: "data-in.mixpanel.com",
};

export class Mixpanel {
  static exportUrl(residency: Residency, day: string): URL {
    const u = new URL("https://data.mixpanel.com/api/2.0/export");
    u.hostname = EXPORT_HOSTS[residency];
    u.searchParams.set("from_date", day);
    u.searchParams.set("to_date", day);
    return u;
  }

  static track = async (event: string, fetcher: typeof http.fetch) => {
    const res = await fetcher("https://api.mixpanel.com/track", { //@hosts(api.mixpanel.com)
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify([{ event, properties: { time: Date.now() } }]),
    });
    return res.status;
  };
}
