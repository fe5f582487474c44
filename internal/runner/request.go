// Package runner runs a function tool in a fresh QuickJS-WASM sandbox with
// the plugin's host API and the Go-side fetch broker, against fixtures or
// the network, and returns a record.Record of what happened. It never imports lsp.
package runner

import (
	"context"
	"encoding/json"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
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
	// Phases, when set, is told each phase of the run and its duration
	// (PhaseNames, in order; a phase a run skips is not told): what the
	// benchmarks' phase tables read.
	Phases func(phase string, d time.Duration)
}

// PhaseNames are the phases Request.Phases is told, in the order a run
// goes through them: the runner's own and, between grant and record, the
// sandbox's (sandbox.Phases).
var PhaseNames = []string{"validate", "manifest", "input", "fixtures", "compile", "grant", "slot",
	"sandbox.acquire", "sandbox.setup", "sandbox.call", "sandbox.wait", "sandbox.deliver", "sandbox.finish", "record"}

// ToolRunner is what the layers above (cmd, lsp) need from the runner; the
// lsp tests use a fake.
type ToolRunner interface {
	Run(ctx context.Context, req Request) (*record.Record, error)
}
