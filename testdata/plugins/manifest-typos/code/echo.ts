// echo: returns its input.
export default function echo(input: unknown) {
  return { type: "markdown", text: "```json\n" + JSON.stringify(input, null, 2) + "\n```" };
}
