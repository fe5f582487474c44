// quoteOfTheDay: the page is named with its extension in the manifest.
export default async function quoteOfTheDay(input) {
  const lang = (input && input.lang) || "en";
  const res = await http.fetch(`https://zenquotes.io/api/today/${lang}`);
  const [q] = await res.json();
  return { type: "stat", value: q.q, label: q.a };
}
