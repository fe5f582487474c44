// Globals a browser or Node has and the sandbox does not. Each is one
// problem, plugin-lsp's page-unknown-global (with what to use instead):
// the generated types declare them deprecated, so TypeScript does not
// add "Cannot find name" at the same place.
export default async function sneaky(input: Input<"sneaky">) {
  const res = await fetch("https://api.openlibrary.org/");
  const key = process.env.OPENLIBRARY_KEY;
  const fs = require("fs");
  const el = document.body;
  const x: string = input; // error TS2322
  return { res, key, fs, el, x };
}
