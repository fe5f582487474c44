// A serial port is not a network at all: full trust, reviewed at install.
import { createRequire } from "node:module";

const nodeRequire = createRequire(import.meta.url);
const { SerialPort } = nodeRequire("serialport");

export const tools = {
  "serial.write": {
    description: "Write a line to a serial device",
    requires: ["notify.user"],
    async execute({ path, line }) {
      const port = new SerialPort({ path, baudRate: 9600 });
      port.write(line + "\n");
      return { written: line.length + 1 };
    },
  },
  "serial.list": {
    description: "List serial devices",
    needsApproval: false,
    async execute() {
      const { list } = require("@serialport/bindings-cpp");
      return list();
    },
  },
};
