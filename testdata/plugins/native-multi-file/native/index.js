// tsc output: one file per source file. The GSM modem speaks AT commands
// over a serial line, not HTTP.
export { tools } from "./tools.js";
