// OAuth token endpoints are not on the API hosts.
const TOKEN_URLS = new Map<string, string>([
  ["hubspot", "https://api.hubapi.com/oauth/v1/token"],
  ["pipedrive", "https://oauth.pipedrive.com/oauth/token"],
]);

export default async function refreshToken(input: { provider: "hubspot" | "pipedrive"; refreshToken: string }) {
  const url = TOKEN_URLS.get(input.provider)!;
  const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: input.refreshToken });
  const res = await http.fetch(url, { method: "POST", body }); //@hosts(api.hubapi.com, oauth.pipedrive.com)
  const tok = await res.json();
  return { expiresIn: tok.expires_in };
}
