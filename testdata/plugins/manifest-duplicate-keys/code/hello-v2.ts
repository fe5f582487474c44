// hello: greets.
export default function hello(input: { who?: string }) {
  return { type: "markdown", text: `Hello, ${input?.who ?? "world"}!` };
}
