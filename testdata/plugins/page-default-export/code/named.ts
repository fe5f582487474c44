// The author forgot `default`.
export async function named(input: { q: string }) {
  return { type: "markdown", text: input.q };
}
