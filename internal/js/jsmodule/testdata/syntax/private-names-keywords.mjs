class P {
  #get = 1;
  static set = 2;
  static = 3;
  sum() { return this.#get + P.set + this.static; }
}
export const tools = { sum: { description: "Sum", run: async () => new P().sum() } };
