// Port of a Go carrier SDK: a table of hosts per carrier and environment,
// an OAuth client-credentials token per call.
export type Carrier = "ups" | "fedex" | "usps";
export type Env = "prod" | "test";

export const HOSTS: Record<Carrier, Record<Env, string>> = {
  ups: { prod: "onlinetools.ups.com", test: "wwwcie.ups.com" },
  fedex: { prod: "apis.fedex.com", test: "apis-sandbox.fedex.com" },
  usps: { prod: "apis.usps.com", test: "apis-tem.usps.com" },
};

const TOKEN_PATHS: Record<Carrier, string> = { ups: "/security/v1/oauth/token", fedex: "/oauth/token", usps: "/oauth2/v3/token" };

export const origin = (carrier: Carrier, env: Env = "prod") => "https://".concat(HOSTS[carrier]?.[env] ?? HOSTS[carrier].prod);

export async function get_token(carrier: Carrier, env: Env): Promise<string> {
  const res = await http.fetch(origin(carrier, env) + TOKEN_PATHS[carrier], { //@hosts(onlinetools.ups.com, wwwcie.ups.com, apis.fedex.com, apis-sandbox.fedex.com, apis.usps.com, apis-tem.usps.com)
    method: "POST",
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  const { access_token = "" } = (await res.json()) ?? {};
  return access_token;
}
