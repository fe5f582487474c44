import { modem } from "./modem.js";

export const send = {
  description: "Send a text message",
  inputJsonSchema: { type: "object", properties: { to: { type: "string" }, text: { type: "string" } } },
  requires: ["network.socket", "notify.users"],
  async execute({ to, text }) {
    return modem().command(`AT+CMGS="${to}"`, text);
  },
};
