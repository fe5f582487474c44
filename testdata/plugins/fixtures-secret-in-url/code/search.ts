// The dev secret of fixtures.json, written into URLs the way authors do:
// percent-encoded (encodeURIComponent's upper-case hex, and lower-case),
// in base64url, in the base64 of a Basic "user:secret", in hex. No URL
// holds the value as it is; check and the editor must not show it in any
// form when they quote these URLs.
export default async function search(input: { q: string }) {
  const a = await http.fetch("https://api.example.com/v1/search?key=wJalr%2F7Hq2%2BZx%3DS3cr3tKEY");
  const b = await http.fetch("https://api.example.com/v1/search?form=1&key=wjalr%2f7Hq2%2bZx%3dS3cr3tKEY");
  const c = await http.fetch("https://api.example.com/v1/token/d0phbHIvN0hxMitaeD1TM2NyM3RLRVk");
  const d = await http.fetch("https://api.example.com/v1/basic?auth=Ym90OndKYWxyLzdIcTIrWng9UzNjcjN0S0VZ");
  const e = await http.fetch("https://api.example.com/v1/hex/774a616c722f374871322b5a783d5333637233744b4559");
  return [input.q, a.ok, b.ok, c.ok, d.ok, e.ok];
}
