export default async function listShelf(input: Input<"listShelf">) {
  // collections is not in capabilities.host: the type says so too.
  const books = await collections.query("shelf"); // error TS2304
  const name: string = input.shelf; // error TS2322
  return { books, name, noSuchTool: null as unknown as Input<"nope"> }; // error TS2344
}
