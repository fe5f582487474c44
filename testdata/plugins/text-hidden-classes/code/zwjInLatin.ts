// zwjInLatin: returns its input.
export default async function zwjInLatin(input: unknown) {
  return { type: "json", value: input };
}
