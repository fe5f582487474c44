export default async function lookupBook(input: { isbn: string }) {
  return { type: "markdown", text: `ISBN ${input.isbn}` };
}
