// emojiZwj: returns its input.
export default async function emojiZwj(input: unknown) {
  return { type: "json", value: input };
}
