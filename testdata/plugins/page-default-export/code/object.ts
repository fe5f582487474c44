// An object with a run method is not a tool function.
export default {
  async run(input: unknown) {
    return { type: "markdown", text: String(input) };
  },
};
