// confirm: returns its input.
export default async function confirm(input: unknown) {
  return { type: "json", value: input };
}
