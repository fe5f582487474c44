// always: returns its input.
export default async function always(input: unknown) {
  return { type: "json", value: input };
}
