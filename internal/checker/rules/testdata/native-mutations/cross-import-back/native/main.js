import { boot } from "./boot.js";
export const tools = { "b.run": { description: "Run", requires: ["clock"], execute() { return boot(); } } };
