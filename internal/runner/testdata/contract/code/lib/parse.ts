// Parses a price list; a bad line throws from deep inside.
export function parseLine(line: string): { sku: string; cents: number } {
  const [sku, price] = line.split(",");
  return { sku, cents: toCents(price) };
}

function toCents(price: string | undefined): number {
  if (price === undefined) {
    throw new RangeError(`no price in this line`);
  }
  return Math.round(Number(price) * 100);
}
