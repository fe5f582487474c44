// None of these is the missing global.
import { fetch } from "./lib/http";

class Client {
  fetch(path: string) { return fetch(`https://api.open-meteo.com${path}`); }
}

export default async function clean(input: { require?: string }, process = (x: string) => x) {
  const hasFetch = typeof XMLHttpRequest !== "undefined";
  const window = { width: 3 };
  const o = { fetch: 1, Buffer: 2 };
  const res = await new Client().fetch("/v1/forecast");
  await http.fetch("https://api.open-meteo.com/v1/ping");
  const { require } = input;
  try { JSON.parse("{"); } catch (document) { /* a catch parameter */ }
  return { hasFetch, w: window.width, o: o.fetch + o.Buffer, status: res.status, r: require, p: process("x") };
}
