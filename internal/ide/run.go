package ide

import "github.com/plugin-lsp/plugin-lsp/internal/runner/record"

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
// responses to fixtures.json) cannot run; "" when it can. A native tool
// has no brokered fetch to record; a function tool records real
// responses only.
func WhyNoRecord(native bool, providers string) string {
	switch {
	case native:
		return CommandRunTool + `: "record" records brokered fetches; a native tool has none`
	case providers != "real":
		return CommandRunTool + `: "record" records real responses: set pluginLsp.providers to "real"`
	}
	return ""
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
