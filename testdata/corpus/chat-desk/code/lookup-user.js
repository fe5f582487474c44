// Plain JavaScript page: users.lookupByEmail through a tiny fetch wrapper.
const BASE_URL = "https://slack.com/api";

function get(method, params) {
  const qs = Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
  return http.fetch(`${BASE_URL}/${method}?${qs}`).then((r) => r.json()); //@hosts(slack.com)
}

export default async function lookupUser({ email }) {
  const res = await get("users.lookupByEmail", { email });
  if (!res.ok) return `No Slack user for ${email}`;
  return { id: res.user.id, name: res.user.real_name, tz: res.user.tz };
}
