// The stack comes back mapped to this file's lines.
function check(x: number): number {
  if (x > 1) {
    throw new RangeError(`too big: ${x}`);
  }
  return x;
}

export default (input: { x: number }) => check(input.x);
