// imageUrl: returns its input.
export default async function imageUrl(input: unknown) {
  return { type: "json", value: input };
}
