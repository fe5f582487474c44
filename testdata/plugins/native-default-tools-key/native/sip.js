// SIP signalling runs over UDP/TCP sessions.
import { UA } from "sip.js";

export default {
  tools: {
    "sip.call": {
      description: "Place a call and play a message",
      requires: ["network.socket", "secrets.read"],
      async execute({ to, message }, ctx) {
        const ua = new UA({ uri: ctx.config.uri, password: await ctx.secret("sip") });
        return ua.invite(to, { message });
      },
    },
  },
};
