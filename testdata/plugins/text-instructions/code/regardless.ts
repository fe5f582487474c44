// regardless: returns its input.
export default async function regardless(input: unknown) {
  return { type: "json", value: input };
}
