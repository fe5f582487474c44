// chatTemplate: returns its input.
export default async function chatTemplate(input: unknown) {
  return { type: "json", value: input };
}
