// indic: returns its input.
export default async function indic(input: unknown) {
  return { type: "json", value: input };
}
