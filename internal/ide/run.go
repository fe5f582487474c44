package ide

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// What plugin.runTool shows around a run: its progress title, why it
// cannot record, and the record as the run panel receives it. The
// approval a native run needs first is approval.go's.

// RunTitle is the progress title of a run of tool; a native tool's names
// its lane.
func RunTitle(tool string, native bool) string {
	if native {
		return "Running " + tool + " (full trust)"
	}
	return "Running " + tool
}

// TestsTitle is the progress title of a run of plugin.runTests.
const TestsTitle = "Running tests"

// WhyNoRecord says why plugin.runTool with "record" (append the answered
// responses to fixtures.json) cannot run; nil when it can. A native tool
// has no brokered fetch to record; a function tool records real
// responses only.
func WhyNoRecord(native bool, providers string) *Failure {
	switch {
	case native:
		return &Failure{Kind: FailInvalid, Message: CommandRunTool + `: "record" records brokered fetches; a native tool has none`}
	case providers != "real":
		return &Failure{Kind: FailInvalid, Message: CommandRunTool + `: "record" records real responses: set pluginLsp.providers to "real"`}
	}
	return nil
}

// NotRunnable is the failure of plugin.runTool on a tool of the plugin p
// in dir that is no function tool (checker.WhyNotRunnable says why).
func NotRunnable(dir string, p *checker.Plugin, tool string) *Failure {
	return failf(FailInvalid, "plugin %s: %s", dir, checker.WhyNotRunnable(p.Manifest, tool))
}

// NoSandbox is the failure of a run in a build without the sandbox.
func NoSandbox() *Failure {
	return failf(FailInternal, "the sandbox is not available in this build of plugin-lsp")
}

// NoRecordReturned is the failure of a run of tool whose runner returned
// neither a record nor an error.
func NoRecordReturned(tool string) *Failure {
	return failf(FailInternal, "run %s: the runner returned no record", tool)
}

// PanelRecord is rec as plugin.runTool answers it and the run panel reads
// it: its lists empty, never null (logs, fetches and each fetch's
// credentials, connections). It changes rec and returns it.
func PanelRecord(rec *record.Record) *record.Record {
	if rec.Logs == nil {
		rec.Logs = []record.LogEntry{}
	}
	if rec.Fetches == nil {
		rec.Fetches = []record.FetchEntry{}
	}
	for i := range rec.Fetches {
		if rec.Fetches[i].Credentials == nil {
			rec.Fetches[i].Credentials = []string{}
		}
	}
	if rec.Connections == nil {
		rec.Connections = []record.Connection{}
	}
	return rec
}
