import { send } from "./send.js";
import "./patch.js";
export const tools = { "sms.send": send };
