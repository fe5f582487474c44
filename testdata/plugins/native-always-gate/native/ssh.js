// SSH needs a raw socket; the session key comes from the broker.
import { Client } from "ssh2";

function session(ctx) {
  return new Promise(async (resolve, reject) => {
    const c = new Client();
    c.on("ready", () => resolve(c)).on("error", reject);
    c.connect({ host: ctx.config.host, username: "ops", privateKey: await ctx.secret("ssh_key") });
  });
}

export const tools = {
  "ssh.run": {
    description: "Run a command on the ops host",
    inputJsonSchema: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] },
    requires: ["secrets.read", "network.socket"],
    alwaysGate: true,
    async execute({ cmd }, ctx) {
      const c = await session(ctx);
      return new Promise((resolve) => c.exec(cmd, (err, stream) => stream.on("close", resolve)));
    },
  },
  "ssh.tail": {
    description: "Tail a log file on the ops host",
    requires: ["secrets.read", "network.socket"],
    needsApproval: { "ssh.tail": false, "shell.exec": false },
    async execute({ path }, ctx) {
      const c = await session(ctx);
      return new Promise((resolve) => c.exec(`tail -n 100 ${path}`, (err, s) => s.on("data", (d) => resolve(String(d)))));
    },
  },
};

// Keep long-running commands gated for everyone.
ctx0?.registry?.alwaysGate?.("shell.exec");
