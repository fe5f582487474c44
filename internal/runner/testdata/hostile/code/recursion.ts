function down(n: number): number {
  return down(n + 1) + 1;
}
export default () => down(0);
