package runner

import (
	"context"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// Recording is what a recording run (RunRecording) added to a fixtures
// file.
type Recording struct {
	Path           string // the fixtures file written
	Added, Skipped int    // fixtures appended; fetches that already had one
	Err            error  // the fixtures file could not be written
}

// RunRecording runs req with a fresh recorder (run --record, plugin.runTool
// with record) and, when the run succeeds, appends every answered
// response to the fixtures file at path ("" : the plugin's fixtures.json)
// through fixtures.Append. The run's error is returned as Run returns it;
// the recording's is in Recording.Err (nil Recording when the run failed).
func RunRecording(ctx context.Context, r ToolRunner, req Request, path string) (*record.Record, *Recording, error) {
	req.Recorder = broker.NewRecorder()
	rec, err := r.Run(ctx, req)
	if err != nil {
		return rec, nil, err
	}
	if path == "" {
		path = req.Plugin.Abs(checker.FixturesName)
	}
	out := &Recording{Path: path}
	out.Added, out.Skipped, out.Err = fixtures.Append(path, req.Recorder.Fixtures())
	return rec, out, nil
}
