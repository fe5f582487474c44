// orderOfCalls: returns its input.
export default async function orderOfCalls(input: unknown) {
  return { type: "json", value: input };
}
