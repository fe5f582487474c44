export default function lookUp(input: { key: string }) {
  return { type: "markdown", text: input.key };
}
