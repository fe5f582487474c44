import { Request } from "zeromq";

interface Args {
  endpoint: string;
  payload: string;
}

export const tools = {
  "zmq.request": {
    description: "Send one request on a ZeroMQ REQ socket and return the reply",
    requires: ["network.socket"],
    async execute(args: Args): Promise<string> {
      const sock = new Request();
      sock.connect(args.endpoint);
      await sock.send(args.payload);
      const [reply] = await sock.receive();
      return reply.toString();
    },
  },
};
