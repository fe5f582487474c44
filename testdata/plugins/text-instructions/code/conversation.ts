// conversation: returns its input.
export default async function conversation(input: unknown) {
  return { type: "json", value: input };
}
