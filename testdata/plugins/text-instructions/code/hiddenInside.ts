// hiddenInside: returns its input.
export default async function hiddenInside(input: unknown) {
  return { type: "json", value: input };
}
