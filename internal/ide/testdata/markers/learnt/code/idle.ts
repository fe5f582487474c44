export default async function idle() { //@nodiag("fetch-refused-at-run")
  return 1;
}
