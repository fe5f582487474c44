// newRole: returns its input.
export default async function newRole(input: unknown) {
  return { type: "json", value: input };
}
