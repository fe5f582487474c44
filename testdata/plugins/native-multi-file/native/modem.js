import { SerialPort } from "serialport";

let port;
export function modem() {
  port ??= new SerialPort({ path: "/dev/ttyUSB2", baudRate: 115200 });
  return {
    command(cmd, body) {
      return new Promise((resolve) => {
        port.write(cmd + "\r" + (body ? body + "\x1a" : ""));
        port.once("data", (d) => resolve(String(d)));
      });
    },
  };
}
