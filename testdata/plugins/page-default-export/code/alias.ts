async function run(input: { n: number }) {
  return { type: "stat", value: input.n * 2, label: "double" };
}
export { run as default };
