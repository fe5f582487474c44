// cjk: returns its input.
export default async function cjk(input: unknown) {
  return { type: "json", value: input };
}
