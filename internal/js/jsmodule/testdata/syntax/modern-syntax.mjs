class Store {
  #items = new Map();
  static #count = 0;
  static { Store.ready = true; }
  set(k, v) { this.#items.set(k, v); Store.#count++; return #items in this; }
  async *entries() { for await (const e of this.#items) yield e; }
}
const store = new Store();
const n = 1_000n ** 2n;
export const tools = {
  put: { description: "Put", run: async (input) => { input.k ??= "k"; return store.set(input.k, input?.v ?? n.toString()); } },
  grep: { description: "Grep", run: async ({ s }) => /(?<w>\p{L}+)/du.exec(s)?.groups?.w },
};
