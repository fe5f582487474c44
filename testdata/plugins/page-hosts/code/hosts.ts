// What the broker calls a host: compared exactly, lower-cased, port when
// not 443; userinfo, lookalikes, trailing dots, IDN and IP literals that
// are not listed are refused.
const API = "http://api.x.org";

export default async function hosts() {
  await http.fetch("https://API.X.ORG/upper");
  await http.fetch("https://api.x.org:443/default-port");
  await http.fetch("https://api.x.org:8443/custom-port");
  await http.fetch("https://api.x.org:9443/other-port");
  await http.fetch("https://10.0.0.7/ip");
  await http.fetch("https://10.0.0.8/other-ip");
  await http.fetch("https://[::1]/loopback");
  await http.fetch("https://api.x.org@evil.example/userinfo");
  await http.fetch("https://api.x.org.evil.example/lookalike");
  await http.fetch("https://evil.example#api.x.org");
  await http.fetch("https://api.x.org./trailing-dot");
  await http.fetch("https://аpi.x.org/cyrillic-a");
  await http.fetch("http://api.x.org/plain-http");
  await http.fetch(`${API}/via-const`);
  await http.fetch("ftp://api.x.org/file");
  await http.fetch("/relative/path");
  await http.fetch(`/relative/${API.length}`);
  await http.fetch("https://files.x.org/f", { method: "put", body: "x" });
  return { type: "markdown", text: "ok" };
}
