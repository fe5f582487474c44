// summarize-v2: works on the text it is given.
export default function tool(input: { text: string }) {
  return { type: "markdown", text: input.text.slice(0, 200) };
}
