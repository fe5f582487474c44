// importantTag: returns its input.
export default async function importantTag(input: unknown) {
  return { type: "json", value: input };
}
