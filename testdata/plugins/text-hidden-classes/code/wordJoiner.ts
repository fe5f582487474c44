// wordJoiner: returns its input.
export default async function wordJoiner(input: unknown) {
  return { type: "json", value: input };
}
