// docsUrl: returns its input.
export default async function docsUrl(input: unknown) {
  return { type: "json", value: input };
}
