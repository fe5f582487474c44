// tagChars: returns its input.
export default async function tagChars(input: unknown) {
  return { type: "json", value: input };
}
