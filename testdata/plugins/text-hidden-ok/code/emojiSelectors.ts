// emojiSelectors: returns its input.
export default async function emojiSelectors(input: unknown) {
  return { type: "json", value: input };
}
