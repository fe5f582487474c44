// bidiIsolate: returns its input.
export default async function bidiIsolate(input: unknown) {
  return { type: "json", value: input };
}
