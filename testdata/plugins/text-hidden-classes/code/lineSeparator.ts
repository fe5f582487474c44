// lineSeparator: returns its input.
export default async function lineSeparator(input: unknown) {
  return { type: "json", value: input };
}
