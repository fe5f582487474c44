#!/usr/bin/env -S deno run
// Syntax goja's parser rejects, handled before it reads the page.
import type { Config } from "./config";
const meta = import.meta.url;
const conf = { base: "https://api.example.com" } as Config; // top-level await does not run: a page is a script

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
