// translate: non-ASCII text before calls on the same line (UTF-16 columns).
const GREETING = "こんにちは世界"; const r1 = () => http.fetch("https://cjk.example.jp/hello");
export default async function translate(input: { text: string }) {
  const emoji = "🎉🎉"; await http.fetch("https://emoji.example.com/party");
  const mixed = "naïve café — ok"; await http.fetch(`https://accents.example.fr/${input.text}`);
  /* 注释 😀 */ await http.fetch("https://comment.example.cn/");
  await r1();
  return { type: "markdown", text: `${GREETING} ${emoji} ${mixed}` };
}
