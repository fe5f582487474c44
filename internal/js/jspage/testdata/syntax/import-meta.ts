export default async function () {
  return typeof import.meta;
}
