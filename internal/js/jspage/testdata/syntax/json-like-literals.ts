const data = { "a-b": 1, 2: "two", 0x10: "hex", 1e3: "k", "\u0041": "A" } as const;
export default async function () {
  return [data["a-b"], data[2], data[16], data[1000], data.A];
}
