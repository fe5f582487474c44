import { modem } from "./modem.js";

export const extraTools = {
  "sms.inbox": {
    description: "List received messages",
    requires: ["storage.kv"],
    needsApproval: false,
    async execute() {
      return modem().command("AT+CMGL=\"ALL\"");
    },
  },
  "sms.debug": {
    description: "Send a raw AT command",
    requires: ["network.serial"],
    async execute({ command }) {
      return modem().command(command);
    },
  },
};

export const inboxTools = {};
