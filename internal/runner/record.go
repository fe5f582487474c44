// Package runner runs a function tool in a fresh QuickJS-WASM sandbox with
// the plugin's host API and the Go-side fetch broker, against fixtures or
// the network, and returns a Record of what happened. It never imports lsp.
package runner

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// Request is one tool run.
type Request struct {
	Plugin *checker.Plugin
	Tool   string // the tool's name in the manifest (without "fn.")
	// Page runs a page by its path when Tool is empty: a page no tool
	// binds keeps the minimal grant (no host method, no network), a bound
	// page runs with its plugin's reach.
	Page  string
	Input json.RawMessage // the tool's single argument; nil means null
	// FixturesPath overrides <plugin>/fixtures.json.
	FixturesPath string
	// Fixtures, when set, is used instead of any fixtures file (the test
	// runner's merge of a case's fixtures with the plugin's).
	Fixtures *broker.Fixtures
	// Recorder, when set, keeps every answered response (run --record);
	// read them with Recorder.Fixtures after the run.
	Recorder *broker.Recorder
	// Providers is "fake" (default: fixtures) or "real" (network, through
	// the same broker).
	Providers string
	// Timeout is the wall deadline of the run (default 30 s).
	Timeout time.Duration
	// Progress, when set, receives short human messages while the run goes
	// on ("compiling", "fetch https://…").
	Progress func(msg string)
}

// Record is the result of a run: what `plugin-lsp run`
// prints and what the LSP command plugin.runTool returns.
type Record struct {
	Claim      string          `json:"claim"` // fn.<tool>:<callId>
	OK         bool            `json:"ok"`
	Result     json.RawMessage `json:"result"`
	Error      *RunError       `json:"error"`
	Logs       []LogEntry      `json:"logs"`
	Fetches    []FetchEntry    `json:"fetches"`
	DurationMs float64         `json:"durationMs"`
	Usage      Usage           `json:"usage"`

	// Secrets is how each credential's dev secret was resolved: name and
	// source ("fixtures", "env" with the variable, "refused" with why and
	// how to bind it), never the value.
	Secrets []SecretEntry `json:"secrets,omitempty"`
	// SecretsOmitted counts the resolutions past MaxSecretEntries.
	SecretsOmitted int `json:"secretsOmitted,omitempty"`

	// The native lane (internal/runner/native) only: Lane is "native",
	// Approval what needsApproval said for this input, Connections every
	// outgoing connection the module opened (in order), Notifications
	// what it sent through ctx.notify.
	Lane               string       `json:"lane,omitempty"`
	Approval           *Approval    `json:"approval,omitempty"`
	Connections        []Connection `json:"connections,omitempty"`
	ConnectionsOmitted int          `json:"connectionsOmitted,omitempty"`
	Notifications      []string     `json:"notifications,omitempty"`
}

// Approval is a native tool's needsApproval evaluated for the run's input.
type Approval struct {
	Required bool `json:"required"`
}

// Connection is one outgoing connection a native tool opened: protocol
// (tcp, tls, udp, http, https, ws, wss), host and port as the module
// asked for them, and Refused when the harness did not let it through
// ("fake-providers": fake providers refuse every connection;
// "not-required": the tool's requires does not grant the protocol).
type Connection struct {
	Protocol string `json:"protocol"`
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Refused  string `json:"refused,omitempty"`
}

// RunError is a thrown error or a stopped run. Stack frames are mapped to
// the page's .ts lines.
type RunError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack"`
	// File, Line, Column (1-based) locate the top mapped frame, when known.
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Violations (InputError): every way the input fails inputJsonSchema,
	// each at its JSON pointer.
	Violations []schema.Violation `json:"violations,omitempty"`
	// Path (ResultError): where in the result the value that is not JSON
	// sits, e.g. result.items[3].when.
	Path string `json:"path,omitempty"`
}

// LogEntry is one console.* call.
type LogEntry struct {
	Level   string `json:"level"` // log, info, warn, error, debug
	Message string `json:"message"`
}

// FetchEntry is one http.fetch call as the broker's audit log saw it:
// method, url, status, bytes, ms, source ("fixture" | "network"),
// credentials (names, never values), refused (the fetchurl.Reason or the
// broker's own reason) and error, host, and the caps that applied
// (maxBytes, timeoutMs). See broker.Entry.
type FetchEntry = broker.Entry

// SecretEntry is one dev secret resolution (capability.SecretResolution).
type SecretEntry = broker.SecretResolution

// Usage is what the run consumed, each figure beside its cap.
type Usage struct {
	MemoryPeakBytes int64 `json:"memoryPeakBytes"`
	MemoryCapBytes  int64 `json:"memoryCapBytes"`
	FetchCount      int   `json:"fetchCount"`
	FetchCap        int   `json:"fetchCap"`
	FetchBytes      int64 `json:"fetchBytes"`
	LogBytes        int64 `json:"logBytes"`
	LogCapBytes     int64 `json:"logCapBytes"`
	TimeoutMs       int64 `json:"timeoutMs"`
}

// ToolRunner is what the layers above (cmd, lsp) need from the runner; the
// lsp tests use a fake.
type ToolRunner interface {
	Run(ctx context.Context, req Request) (*Record, error)
}
