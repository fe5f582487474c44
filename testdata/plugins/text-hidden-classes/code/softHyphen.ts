// softHyphen: returns its input.
export default async function softHyphen(input: unknown) {
  return { type: "json", value: input };
}
