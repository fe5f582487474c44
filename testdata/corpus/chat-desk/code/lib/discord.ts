// Discord REST helpers (discord.js's REST style: a versioned base and route helpers).
const API_VERSION = 10;
export const DISCORD_API = `https://discord.com/api/v${API_VERSION}`;

export const Routes = {
  channelMessages: (channelId: string) => `/channels/${channelId}/messages` as const,
  channel: (channelId: string) => `/channels/${channelId}` as const,
};

export async function rest<T>(route: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const res = await http.fetch(`${DISCORD_API}${route}`, { //@hosts(discord.com)
    method: init.method ?? "GET",
    headers: init.body ? { "Content-Type": "application/json" } : {},
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (res.status >= 400) {
    throw new Error(`Discord ${route}: HTTP ${res.status}`);
  }
  return (await res.json()) as T;
}
