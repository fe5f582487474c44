// beforeAnswering: returns its input.
export default async function beforeAnswering(input: unknown) {
  return { type: "json", value: input };
}
