// zeroWidth: returns its input.
export default async function zeroWidth(input: unknown) {
  return { type: "json", value: input };
}
