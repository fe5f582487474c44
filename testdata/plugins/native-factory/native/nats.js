// NATS speaks its own protocol over TCP. The tools are generated from the
// subjects the service advertises.
import { connect } from "nats";

function makeTools(subjects) {
  const out = {};
  for (const s of subjects) {
    out[`nats.${s}`] = {
      description: `NATS ${s}`,
      requires: ["network.socket"],
      async execute(args, ctx) {
        const nc = await connect({ servers: ctx.config.servers });
        return nc[s](args.subject, args.data);
      },
    };
  }
  return out;
}

export default makeTools(["request", "publish"]);
