// schemaDescription: returns its input.
export default async function schemaDescription(input: unknown) {
  return { type: "json", value: input };
}
