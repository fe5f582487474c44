class Api {
  get() { return "got"; }
  set() { return "set"; }
  static() { return "static"; }
  async() { return "async"; }
}
export default async function () {
  const a = new Api();
  return [a.get(), a.set(), a.static(), a.async()];
}
