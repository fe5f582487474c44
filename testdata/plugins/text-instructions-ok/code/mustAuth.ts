// mustAuth: returns its input.
export default async function mustAuth(input: unknown) {
  return { type: "json", value: input };
}
