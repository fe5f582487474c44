export default () => {
  const hoard: Float64Array[] = [];
  for (;;) hoard.push(new Float64Array(1 << 20));
};
