export default async function () {
  const cache = {};
  const arr = [0];
  cache["k"] ||= "v";
  arr[0] ||= 9;
  cache.count ??= 0;
  cache.count &&= 1;
  return [cache, arr];
}
