// http.fetch("https://in-a-comment.evil.example/") is only a comment.
/* await http.fetch("https://block-comment.evil.example/"); */
const doc = 'call http.fetch("https://in-a-string.evil.example/") to fetch';
const md = `Use \`http.fetch("https://in-a-template.evil.example/")\` like this`;
const re = /http\.fetch\("https:\/\/in-a-regex\.evil\.example\/"\)/;
const obj = { http: { fetch: (u: string) => u } };

export default async function notCalls() {
  obj.http.fetch("https://member.evil.example/");
  const res = await http.fetch("https://api.good.dev/ping");
  return { type: "markdown", text: [doc, md, String(re), await res.text()].join("\n") };
}
