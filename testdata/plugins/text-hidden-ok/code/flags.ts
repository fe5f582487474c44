// flags: returns its input.
export default async function flags(input: unknown) {
  return { type: "json", value: input };
}
