// accents: returns its input.
export default async function accents(input: unknown) {
  return { type: "json", value: input };
}
