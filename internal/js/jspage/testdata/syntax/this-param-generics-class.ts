class Repo<T extends { id: string }> {
  private items = new Map<string, T>();
  add(this: Repo<T>, item: T) { this.items.set(item.id, item); return this; }
  get size() { return this.items.size; }
}
export default async function () {
  return new Repo<{ id: string }>().add({ id: "a" }).size;
}
