// Globals a browser or Node has and the sandbox does not.
export default async function sneaky(input: Input<"sneaky">) {
  const res = await fetch("https://api.openlibrary.org/"); // error TS2304
  const key = process.env.OPENLIBRARY_KEY; // error TS2591
  const fs = require("fs"); // error TS2591
  const el = document.body; // error TS2584
  const x: string = input; // error TS2322
  return { res, key, fs, el, x };
}
