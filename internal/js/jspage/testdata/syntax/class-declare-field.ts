class Model {
  declare id: string;
  name!: string;
  optional?: number;
}
export default async function () {
  const m = new Model();
  m.name = "n";
  return Object.keys(m);
}
