export default async function rates() {
  const res = await http.fetch("https://api.frankfurter.app/latest?from=EUR");
  return { type: "markdown", text: await res.text() };
}
