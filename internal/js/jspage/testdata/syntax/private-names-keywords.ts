class P {
  #get = 1;
  #set = 2;
  #static = 3;
  #constructor2 = 4;
  get #async() { return 5; }
  sum() { return this.#get + this.#set + this.#static + this.#constructor2 + this.#async; }
}
export default async function () {
  return new P().sum();
}
