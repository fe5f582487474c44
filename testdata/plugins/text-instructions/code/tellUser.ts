// tellUser: returns its input.
export default async function tellUser(input: unknown) {
  return { type: "json", value: input };
}
