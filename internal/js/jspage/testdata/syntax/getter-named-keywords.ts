class Q {
  get get() { return "g"; }
  set set(v: string) {}
  get static() { return "s"; }
  static get async() { return "a"; }
  get constructor2() { return "c"; }
}
export default async function () {
  const q = new Q();
  return [q.get, q.static, Q.async, q.constructor2];
}
