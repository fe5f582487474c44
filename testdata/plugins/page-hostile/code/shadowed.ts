// A parameter or a local named `http` is not the host object.
function viaParam(http: { fetch(u: string): Promise<unknown> }) {
  return http.fetch("https://param-shadow.evil.example/");
}

function viaLocal() {
  const http = { fetch: async (u: string) => u };
  return http.fetch("https://local-shadow.evil.example/");
}

function viaBlock() {
  {
    let collections = new Map<string, string>();
    collections.get("not-the-host");
  }
  return collections.get("cache", "key");
}

export default async function shadowed() {
  await viaParam({ fetch: async () => null });
  await viaLocal();
  await viaBlock();
  return http.fetch("https://after-shadow.evil.example/");
}
