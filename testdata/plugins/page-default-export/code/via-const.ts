const tool = async (input: { n: number }) => ({ type: "stat", value: -input.n, label: "negated" });
export default tool;
