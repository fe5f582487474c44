// bidiOverride: returns its input.
export default async function bidiOverride(input: unknown) {
  return { type: "json", value: input };
}
