// otherTools: returns its input.
export default async function otherTools(input: unknown) {
  return { type: "json", value: input };
}
