class Registry {
  static get = (k: string) => Registry.items[k];
  static set = (k: string, v: string) => { Registry.items[k] = v; };
  static items: Record<string, string> = {};
}
export default async function () {
  Registry.set("x", "y");
  return Registry.get("x");
}
