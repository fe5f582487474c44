const of = [1, 2];
const get = 1, set = 2, target = 3, meta = 4, from = 5, as = 6;
export default async function () {
  let sum = 0;
  for (const x of of) sum += x;
  return sum + get + set + target + meta + from + as;
}
