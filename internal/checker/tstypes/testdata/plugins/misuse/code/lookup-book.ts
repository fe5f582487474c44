// Mistakes a type checker should catch before any run.
export default async function lookupBook(input: Input<"lookupBook">) {
  const isbn: number = input.isbn; // error TS2322
  const typo = input.isbm; // error TS2339
  if (input.format === "medium") return null; // error TS2367
  const res = await http.fetch(`https://api.openlibrary.org/isbn/${isbn}${typo}.json`, { method: "FETCH" }); // error TS2322
  if (res.statuscode !== 200) return null; // error TS2339
  const title: string = res.json().title; // error TS2339
  return { title, when: res.headers.get("date").slice(0, 10) }; // error TS2531
}
