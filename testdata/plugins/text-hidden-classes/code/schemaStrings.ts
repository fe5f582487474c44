// schemaStrings: returns its input.
export default async function schemaStrings(input: unknown) {
  return { type: "json", value: input };
}
