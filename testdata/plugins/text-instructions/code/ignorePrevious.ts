// ignorePrevious: returns its input.
export default async function ignorePrevious(input: unknown) {
  return { type: "json", value: input };
}
