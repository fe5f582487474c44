import { extraTools } from "./extra.js";
export const tools = { "x.a": { description: "A", execute() {} }, ...extraTools };
