// The host objects are frozen and their bindings locked.
export default () => {
  const out: string[] = [];
  const g = globalThis as any;
  try { g.http.fetch = () => "mine"; out.push("assigned"); } catch (e) { out.push((e as Error).name); }
  try { g.http = { fetch: () => "mine" }; out.push("rebound"); } catch (e) { out.push((e as Error).name); }
  try { Object.defineProperty(g, "http", { value: 1 }); out.push("redefined"); } catch (e) { out.push((e as Error).name); }
  try { delete g.collections; out.push(typeof g.collections); } catch (e) { out.push((e as Error).name); }
  try { g.__sb.deliver = null; out.push("glue replaced"); } catch (e) { out.push((e as Error).name); }
  return out;
};
