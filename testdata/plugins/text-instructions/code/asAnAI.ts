// asAnAI: returns its input.
export default async function asAnAI(input: unknown) {
  return { type: "json", value: input };
}
