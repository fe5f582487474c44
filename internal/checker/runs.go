package checker

import "bytes"

// ToolRun is what the rules learn from the last run of a function tool:
// the fetches the broker saw. Runs reach the check through Config.Runs
// (the language server fills it from the runs it made; the CLI from none),
// so the analysis knows nothing of the runner.
type ToolRun struct {
	Fetches []RunFetch
	// Connections are the outgoing connections of a native tool's run
	// (plugin-lsp run --trust-native), as its record lists them.
	Connections []RunConnection
}

// RunConnection is one connection a native tool's run opened.
type RunConnection struct {
	Protocol string // tcp, tls, udp, http, https, ws, wss
	Host     string
	Port     int
	Refused  string // "fake-providers", "not-required", "" when it went out
}

// RunFetch is one fetch of a run, as the run record lists it.
type RunFetch struct {
	URL  string
	Host string
	// Refused is the broker's reason ("not-allowed", …), "" when it went out.
	Refused string
}

// DefaultExportSpan is where a page shows its tool: its "export default",
// or its first line.
func DefaultExportSpan(text []byte) Span {
	if i := bytes.Index(text, []byte("export default")); i >= 0 {
		return Span{Start: i, End: i + len("export default")}
	}
	end := bytes.IndexByte(text, '\n')
	if end < 0 {
		end = len(text)
	}
	return Span{Start: 0, End: end}
}
