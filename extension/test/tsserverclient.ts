// A tsserver over stdio for the tests: the TypeScript of node_modules, the
// way VS Code starts it (inferred projects per root, no typings download).
import { ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { EXT_ROOT } from "./util";

const TSSERVER = join(EXT_ROOT, "node_modules", "typescript", "lib", "tsserver.js");

export interface Diag {
  code: number;
  text: string;
  start: { line: number; offset: number };
}

/** A tsserver over stdio, answering requests by seq. */
export class TSServer {
  private proc: ChildProcess;
  private buf = ""; // latin1: one char per byte, as Content-Length counts
  private seq = 0;
  private waiting = new Map<number, (body: unknown) => void>();
  stderr = "";
  constructor(args: string[], env: NodeJS.ProcessEnv = process.env) {
    const log = process.env.PLUGIN_LSP_TSS_LOG ? `-level verbose -file ${process.env.PLUGIN_LSP_TSS_LOG}` : "";
    this.proc = spawn(process.execPath, [TSSERVER, "--disableAutomaticTypingAcquisition", "--useInferredProjectPerProjectRoot", ...args], { stdio: ["pipe", "pipe", "pipe"], env: { ...env, TSS_LOG: log } });
    this.proc.stdout!.setEncoding("latin1");
    this.proc.stdout!.on("data", (d: string) => this.read(d));
    this.proc.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }
  private read(d: string) {
    this.buf += d;
    for (;;) {
      const head = this.buf.indexOf("\r\n\r\n");
      if (head < 0) return;
      const len = Number(/Content-Length: (\d+)/.exec(this.buf.slice(0, head))![1]);
      if (this.buf.length < head + 4 + len) return;
      const msg = JSON.parse(Buffer.from(this.buf.slice(head + 4, head + 4 + len), "latin1").toString("utf8"));
      this.buf = this.buf.slice(head + 4 + len);
      if (msg.type === "response") {
        const w = this.waiting.get(msg.request_seq);
        this.waiting.delete(msg.request_seq);
        w?.(msg.success ? msg.body : { error: msg.message });
      }
    }
  }
  request<T>(command: string, args: unknown): Promise<T> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve as (b: unknown) => void);
      this.proc.stdin!.write(JSON.stringify({ seq, type: "request", command, arguments: args }) + "\n");
    });
  }
  /** open has no response: a request after it is answered once it is done. */
  open(file: string, root: string) {
    this.proc.stdin!.write(JSON.stringify({ seq: ++this.seq, type: "request", command: "open", arguments: { file, projectRootPath: root } }) + "\n");
  }
  async problems(file: string): Promise<Diag[]> {
    const syn = await this.request<Diag[]>("syntacticDiagnosticsSync", { file });
    const sem = await this.request<Diag[]>("semanticDiagnosticsSync", { file });
    return [...syn, ...sem];
  }
  suggestions(file: string): Promise<Diag[]> {
    return this.request<Diag[]>("suggestionDiagnosticsSync", { file });
  }
  close() {
    this.proc.kill();
  }
}

