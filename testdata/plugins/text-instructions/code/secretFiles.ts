// secretFiles: returns its input.
export default async function secretFiles(input: unknown) {
  return { type: "json", value: input };
}
