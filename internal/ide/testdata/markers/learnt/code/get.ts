// get: one host known statically (and undeclared), one only at run time.
export default async function get(input: { id: string; region: string }) { /*@diag("export default", "fetch-refused-at-run", "dyn.example.org")*/ /*@nodiag("fetch-refused-at-run", "static.example.org")*/ /*@nodiag("fetch-refused-at-run", "api.example.org")*/ /*@nodiag("fetch-refused-at-run", "limit")*/
  await http.fetch("https://api.example.org/items/" + input.id);
  await http.fetch("https://static.example.org/items/" + input.id); //@diag("http.fetch", "fetch-undeclared-domain", "static.example.org is not in capabilities.fetch")
  const host = [input.region, "example", "org"].filter(Boolean).join(".");
  return (await http.fetch(`https://${host}/items/${input.id}`)).status;
}
