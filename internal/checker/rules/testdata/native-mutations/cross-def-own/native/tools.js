import { put } from "./put.js";
export const tools = { "kv.put": put };
