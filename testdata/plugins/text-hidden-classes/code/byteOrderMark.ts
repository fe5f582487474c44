// byteOrderMark: returns its input.
export default async function byteOrderMark(input: unknown) {
  return { type: "json", value: input };
}
