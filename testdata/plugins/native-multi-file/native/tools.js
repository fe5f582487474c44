import { send } from "./send.js";
import * as more from "./inbox.js";

export const tools = {
  "sms.send": send,
  ...more.inboxTools,
  ...extraTools,
};

import { extraTools } from "./extra.js";
