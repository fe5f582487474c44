// persian: returns its input.
export default async function persian(input: unknown) {
  return { type: "json", value: input };
}
