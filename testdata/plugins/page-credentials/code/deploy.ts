// deploy: literal secrets in code.
const GH = "ghp_0123456789abcdefghijABCDEFGHIJ0123456789";
const DEV = "dev-gh-7c1e44aa90";
const NOT_A_SECRET = "9780261103344-9780261103344-9780261103344";

export default async function deploy() {
  await http.fetch("https://hooks.slack.com/services/T000/B000", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: "deployed", auth: "Bearer abcdefghijklmnopqrstuvwxyz012345" }),
  });
  return { type: "markdown", text: GH.length + DEV.length + NOT_A_SECRET };
}
