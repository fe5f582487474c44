const cfg = await Promise.resolve({ n: 1 });
export const tools = { n: { description: "N", run: async () => cfg.n } };
