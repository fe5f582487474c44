// markdown: returns its input.
export default async function markdown(input: unknown) {
  return { type: "json", value: input };
}
