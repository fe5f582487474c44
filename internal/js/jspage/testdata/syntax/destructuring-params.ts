const f = ([x, y]: [number, number], { z }: { z: number }, ...more: number[]) => x + y + z + more.length;
export default async function () {
  return f([1, 2], { z: 3 }, 4, 5);
}
