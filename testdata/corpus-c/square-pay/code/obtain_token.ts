// OAuth lives beside the API in production; the sandbox has its own host.
const OAUTH = { production: "https://connect.squareup.com", sandbox: "https://connect.squareupsandbox.com" } as const;

export default async function obtain_token({ code, env = "production" }: { code: string; env?: keyof typeof OAUTH }) {
  const token_url = OAUTH[env] + "/oauth2/token";
  const response = await http.fetch(token_url, { //@hosts(connect.squareup.com, connect.squareupsandbox.com)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: { client_id: "sq0idp-example", grant_type: "authorization_code", code },
  });
  const { access_token = null, expires_at = null } = await response.json();
  return { has_token: access_token !== null, expires_at };
}
