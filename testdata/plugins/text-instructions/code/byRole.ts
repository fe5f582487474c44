// byRole: returns its input.
export default async function byRole(input: unknown) {
  return { type: "json", value: input };
}
