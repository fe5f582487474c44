// ignoreCase: returns its input.
export default async function ignoreCase(input: unknown) {
  return { type: "json", value: input };
}
