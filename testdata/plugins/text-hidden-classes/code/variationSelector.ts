// variationSelector: returns its input.
export default async function variationSelector(input: unknown) {
  return { type: "json", value: input };
}
