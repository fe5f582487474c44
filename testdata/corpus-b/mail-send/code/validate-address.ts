// ZeroBounce moved validation to a regional bulk host; single checks stay on api.
const Endpoints = {
  get validate() {
    const u = new URL("https://api.zerobounce.net/v2/validate");
    return u;
  },
} as const;

export default async function validateAddress(input: { email: string }) {
  const u = Endpoints.validate;
  u.searchParams.set("email", input.email);
  u.searchParams.set("ip_address", "");
  const res = await http.fetch(new Request(u)); //@hosts(api.zerobounce.net)
  const body = await res.json();
  return { status: body.status };
}
