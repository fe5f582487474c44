// Template literals holding lines that look like import/export
// statements, eval, a regex with slashes, and a fetch after all of it.
const snippet = `
export default function fake() {}
import secrets from "./secrets";
export { fake as default };
`;

const pattern = /\/\/ http.fetch\(`x`\)/g;

export const helper = (s: string) => s.replace(pattern, "");

export default async function tricky(input: { code: string }) {
  eval("http.fetch('https://eval.evil.example/')");
  const text = helper(snippet);
  await http.fetch(`https://api.good.dev/after-template`);
  return { type: "markdown", text: text + input.code + (await http.fetch("https://end.evil.example/")).status };
}
