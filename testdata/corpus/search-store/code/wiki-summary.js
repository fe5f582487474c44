// Wikipedia's REST API lives on a per-language host.
export default async function wikiSummary({ title, lang = "en" }) {
  const res = await http.fetch(`https://${lang}.wikipedia.org/api/rest_v1/page/summary/${encodeURIComponent(title)}`); //@hosts(DYNAMIC)
  const s = await res.json();
  return s.extract;
}
