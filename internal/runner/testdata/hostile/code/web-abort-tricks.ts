// AbortSignal look-alikes are refused before anything is sent; a real
// abort stops the request and the broker records it.
export default async () => {
  const out: string[] = [];
  const attempt = async (init: any) => {
    try { await http.fetch("https://api.example.com/v1/items", init); out.push("sent"); } catch (e: any) { out.push(e.name); }
  };
  await attempt({ signal: { aborted: false, addEventListener() {} } });
  await attempt({ get signal() { return new Proxy(new AbortController().signal, {}); } });
  await attempt({ signal: AbortSignal.abort() });
  const c = new AbortController();
  const p = http.fetch("https://slow.example.com/wait", { signal: c.signal });
  setTimeout(() => c.abort(), 20);
  try { await p; out.push("sent"); } catch (e: any) { out.push(e.name); }
  return out;
};
