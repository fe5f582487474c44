// controlChar: returns its input.
export default async function controlChar(input: unknown) {
  return { type: "json", value: input };
}
