// A native tool module (full-trust lane): a minimal Redis client speaking
// RESP (the REdis Serialization Protocol) over a plain TCP socket.
// `plugin-lsp run --trust-native --providers real` lets the socket through
// because every tool here requires "network.socket"; under fake providers
// (the default) the harness refuses it and records it in connections.
import net from "node:net";

const target = {
  host: { type: "string", description: "Redis host", default: "127.0.0.1" },
  port: { type: "integer", minimum: 1, maximum: 65535, description: "Redis port", default: 6379 },
};

// encode writes one command as a RESP array of bulk strings.
function encode(args) {
  let out = `*${args.length}\r\n`;
  for (const a of args) {
    const s = String(a);
    out += `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
  }
  return out;
}

// parse reads one RESP reply from buf at i; it returns [value, next] or
// null when buf does not hold the whole reply yet.
function parse(buf, i = 0) {
  const nl = buf.indexOf("\r\n", i);
  if (nl < 0) return null;
  const kind = String.fromCharCode(buf[i]);
  const line = buf.toString("utf8", i + 1, nl);
  switch (kind) {
    case "+":
      return [line, nl + 2];
    case "-": {
      const e = new Error(`redis: ${line}`);
      e.name = "RedisError";
      return [e, nl + 2];
    }
    case ":":
      return [Number(line), nl + 2];
    case "$": {
      const n = Number(line);
      if (n < 0) return [null, nl + 2];
      if (buf.length < nl + 2 + n + 2) return null;
      return [buf.toString("utf8", nl + 2, nl + 2 + n), nl + 2 + n + 2];
    }
    case "*": {
      const n = Number(line);
      if (n < 0) return [null, nl + 2];
      const items = [];
      let at = nl + 2;
      for (let k = 0; k < n; k++) {
        const r = parse(buf, at);
        if (!r) return null;
        items.push(r[0]);
        at = r[1];
      }
      return [items, at];
    }
  }
  throw new Error(`redis: unexpected reply byte ${JSON.stringify(kind)}`);
}

// command opens a connection, sends one command and reads its reply.
function command({ host = "127.0.0.1", port = 6379 }, args, signal) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    let buf = Buffer.alloc(0);
    const done = (err, value) => {
      socket.destroy();
      signal.removeEventListener("abort", onAbort);
      if (err) reject(err);
      else resolve(value);
    };
    const onAbort = () => done(signal.reason ?? new Error("aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    socket.on("connect", () => socket.write(encode(args)));
    socket.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      let r;
      try {
        r = parse(buf);
      } catch (e) {
        done(e);
        return;
      }
      if (!r) return;
      if (r[0] instanceof Error) done(r[0]);
      else done(null, r[0]);
    });
    socket.on("error", (e) => done(e));
    socket.on("end", () => done(new Error("redis: the server closed the connection before replying")));
  });
}

export const tools = {
  "redis.ping": {
    description: "Check that the Redis server answers",
    inputJsonSchema: { type: "object", properties: { ...target }, additionalProperties: false, examples: [{}] },
    requires: ["network.socket"],
    needsApproval: false,
    async execute(args, ctx) {
      return { reply: await command(args, ["PING"], ctx.signal) };
    },
  },
  "redis.get": {
    description: "Read the note stored under a key",
    inputJsonSchema: {
      type: "object",
      properties: { key: { type: "string", minLength: 1 }, ...target },
      required: ["key"],
      additionalProperties: false,
      examples: [{ key: "note:1" }],
    },
    requires: ["network.socket"],
    needsApproval: false,
    async execute(args, ctx) {
      const value = await command(args, ["GET", args.key], ctx.signal);
      ctx.log(`GET ${args.key}: ${value === null ? "none" : `${value.length} characters`}`);
      return { key: args.key, value };
    },
  },
  "redis.set": {
    description: "Store a note under a key (overwrites it)",
    inputJsonSchema: {
      type: "object",
      properties: {
        key: { type: "string", minLength: 1 },
        value: { type: "string" },
        overwrite: { type: "boolean", description: "the key exists and is replaced" },
        ...target,
      },
      required: ["key", "value"],
      additionalProperties: false,
      examples: [{ key: "note:1", value: "buy milk" }],
    },
    requires: ["network.socket"],
    // Overwriting a note needs the user's yes; writing a new key does not
    // (the agent sets overwrite: true when it knows the key exists).
    needsApproval: (args) => args.overwrite === true,
    async execute(args, ctx) {
      const reply = await command(args, ["SET", args.key, args.value], ctx.signal);
      return { key: args.key, stored: reply === "OK" };
    },
  },
};
