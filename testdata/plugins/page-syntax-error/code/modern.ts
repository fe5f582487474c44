#!/usr/bin/env -S deno run
// Syntax goja's parser rejects, handled before it reads the page.
import type { Config } from "./config";
const meta = import.meta.url;
const conf = (await Promise.resolve({ base: "https://api.example.com" })) as Config;

async function* pages() {
  yield 1;
}

export default async function modern() {
  for await (const page of pages()) {
    using guard = { [Symbol.dispose]() {} };
    await http.fetch(`https://pages.example.com/${page}?m=${meta.length}&b=${conf.base}`);
  }
  return http.fetch("https://api.example.com/done");
}
