// promptLibrary: returns its input.
export default async function promptLibrary(input: unknown) {
  return { type: "json", value: input };
}
