// htmlComment: returns its input.
export default async function htmlComment(input: unknown) {
  return { type: "json", value: input };
}
