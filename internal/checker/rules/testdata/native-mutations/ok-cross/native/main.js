import { get } from "./get.js";
import * as put from "./put.js";
import { log } from "./log.js";
export const tools = { "w.get": get, "w.put": put.def };
log("tools", Object.keys(tools));
