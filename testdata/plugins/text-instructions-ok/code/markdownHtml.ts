// markdownHtml: returns its input.
export default async function markdownHtml(input: unknown) {
  return { type: "json", value: input };
}
