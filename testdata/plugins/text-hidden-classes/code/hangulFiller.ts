// hangulFiller: returns its input.
export default async function hangulFiller(input: unknown) {
  return { type: "json", value: input };
}
