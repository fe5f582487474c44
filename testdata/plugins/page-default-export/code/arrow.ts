export default async (input: { n: number }) => ({ type: "stat", value: input.n + 1, label: "next" });
