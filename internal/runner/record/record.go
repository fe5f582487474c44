// Package record holds the run record: what a tool run did (result or
// error, logs, fetches, dev secret resolutions, usage), as `plugin-lsp run`
// prints it and the LSP command plugin.runTool returns it. It is a leaf of
// plain values: the editor (internal/ide) reads records without linking the
// engine (no wazero, QuickJS, goja or esbuild), and the runner and the
// broker write them.
package record

import (
	"encoding/json"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/schema"
)

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
	Secrets []capability.SecretResolution `json:"secrets,omitempty"`
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
// (maxBytes, timeoutMs).
type FetchEntry struct {
	Method      string   `json:"method"`
	URL         string   `json:"url"`
	Status      int      `json:"status,omitempty"`
	Bytes       int64    `json:"bytes,omitempty"`
	Ms          float64  `json:"ms"`
	Source      string   `json:"source,omitempty"` // "fixture" | "network"; absent when no provider was asked
	Credentials []string `json:"credentials"`
	// Refused is the fetchurl.Reason (or one of the broker's own reasons:
	// "limit", "no-fixture", "bad-method", …) when the broker refused the
	// call; Error says why in words.
	Refused string `json:"refused,omitempty"`
	Error   string `json:"error,omitempty"`
	// Host is the normalized host (fetchurl.Target.Host), when the URL parsed.
	Host string `json:"host,omitempty"`
	// MaxBytes and TimeoutMs are the caps that applied to this call.
	MaxBytes  int64 `json:"maxBytes,omitempty"`
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// What was sent and what came back (preview.go; capped, redacted):
	// the request headers as sent, a credential's header written as its
	// format with the credential's name ("Bearer {{hook_token}}"), the
	// request body's size and its first bytes, the response headers.
	RequestHeaders  map[string]string `json:"requestHeaders,omitempty"`
	RequestBytes    int64             `json:"requestBytes,omitempty"`
	RequestPreview  string            `json:"requestPreview,omitempty"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`
}

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
