// silently: returns its input.
export default async function silently(input: unknown) {
  return { type: "json", value: input };
}
