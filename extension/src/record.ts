// The run record returned by the server's `plugin.runTool` command and
// printed by `plugin-lsp run` (internal/runner/record/record.go is the contract). Every field
// is optional here: the renderer must cope with a partial or hostile record.

export interface RunError {
  name?: string;
  message?: string;
  stack?: string;
  /** Plugin-relative path of the top mapped frame (e.g. "code/lookup-book.ts"). */
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  /**
   * InputError: every way the input fails the tool's inputJsonSchema, as
   * the server's validator (draft 2020-12 unless "$schema" names another)
   * reports it, each at the JSON pointer of the offending value ("" is the
   * whole input).
   */
  violations?: Violation[] | null;
}

export interface Violation {
  pointer?: string;
  message?: string;
}

export interface LogEntry {
  level?: string;
  message?: string;
}

export interface FetchEntry {
  method?: string;
  url?: string;
  status?: number;
  bytes?: number;
  ms?: number;
  /** "fixture" or "network"; absent when the broker refused the call before asking either. */
  source?: string;
  credentials?: string[] | null;
  refused?: string;
  error?: string;
  host?: string;
  maxBytes?: number;
  timeoutMs?: number;
}

/** How one credential's dev secret was resolved (never its value). */
export interface SecretEntry {
  name?: string;
  source?: "fixtures" | "env" | "refused" | string;
  env?: string;
  reason?: string;
}

export interface Usage {
  memoryPeakBytes?: number;
  memoryCapBytes?: number;
  fetchCount?: number;
  fetchCap?: number;
  fetchBytes?: number;
  logBytes?: number;
  logCapBytes?: number;
  timeoutMs?: number;
}

/**
 * One outgoing connection a native tool opened (the full-trust lane):
 * protocol tcp, tls, udp, http, https, ws or wss; refused says why the
 * harness did not let it through ("fake-providers", "not-required").
 */
export interface ConnectionEntry {
  protocol?: string;
  host?: string;
  port?: number;
  refused?: string;
}

export interface RunRecord {
  /** "native" for a native tool's run (full trust); absent for a function tool. */
  lane?: string;
  /** What the tool's needsApproval said for this input (native runs). */
  approval?: { required?: boolean } | null;
  connections?: ConnectionEntry[] | null;
  connectionsOmitted?: number;
  notifications?: string[] | null;
  claim?: string;
  ok?: boolean;
  result?: unknown;
  error?: RunError | null;
  logs?: LogEntry[] | null;
  fetches?: FetchEntry[] | null;
  durationMs?: number;
  usage?: Usage | null;
  secrets?: SecretEntry[] | null;
  secretsOmitted?: number;
}

/** The single argument of the server command `plugin.runTool`. */
export interface RunToolArgs {
  dir?: string;
  uri?: string;
  tool: string;
  input?: unknown;
}
