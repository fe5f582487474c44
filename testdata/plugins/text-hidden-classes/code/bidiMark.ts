// bidiMark: returns its input.
export default async function bidiMark(input: unknown) {
  return { type: "json", value: input };
}
