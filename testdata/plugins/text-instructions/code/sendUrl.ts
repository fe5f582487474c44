// sendUrl: returns its input.
export default async function sendUrl(input: unknown) {
  return { type: "json", value: input };
}
