// A page ported from a Node script: every global here is missing in the sandbox.
const KEY = process.env.WEATHER_KEY;
const qs = require("querystring");

export default async function weather(input: { lat: number; lon: number }) {
  const res = await fetch(`https://api.open-meteo.com/v1/forecast?latitude=${input.lat}`);
  const raw = Buffer.from(await res.text()).toString("base64");
  await new Promise((r) => setImmediate(r));
  const sock = new WebSocket("wss://api.open-meteo.com/live");
  const again = await globalThis.fetch("https://api.open-meteo.com/v1/x");
  const opts = { fetch, window: 1 };
  return { raw, sock: String(sock), again: again.status, opts: Object.keys(opts), key: KEY, qs: typeof qs };
}
