// hideFrom: returns its input.
export default async function hideFrom(input: unknown) {
  return { type: "json", value: input };
}
