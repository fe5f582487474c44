function fmt(x: number): string;
function fmt(x: string): string;
function fmt(x: number | string): string { return String(x); }
export default async function () {
  return fmt(1) + fmt("2");
}
