class Loader {
  load = async (id: string): Promise<string> => `loaded ${id}`;
  static create = () => new Loader();
}
export default async function () {
  return await Loader.create().load("7");
}
