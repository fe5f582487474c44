// What new URL() shows is what the broker checks: a backslash or an
// at-sign cannot make the two read different hosts.
export default async () => {
  const u = new URL("https://api.example.com\\@evil.com/v1/items");
  let sent = "refused";
  try { await http.fetch(u); sent = "sent"; } catch (e: any) { sent = String(e.message).slice(0, 30); }
  return { hostname: u.hostname, href: u.href, sent };
};
