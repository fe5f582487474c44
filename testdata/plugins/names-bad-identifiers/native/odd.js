export const tools = {
  "odd..run": { description: "odd", async execute() { return 1; } },
  "odd.run ": { description: "odd too", async execute() { return 2; } },
};
