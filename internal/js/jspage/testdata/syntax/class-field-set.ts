class Store {
  set = (k: string, v: number) => { this.data[k] = v; };
  data: Record<string, number> = {};
}
export default async function () {
  const s = new Store();
  s.set("a", 1);
  return s.data;
}
