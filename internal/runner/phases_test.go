package runner

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// TestRunPhasesTold: Request.Phases is told every phase of a run once, in
// PhaseNames' order, and the phases add up to no more than the run took.
func TestRunPhasesTold(t *testing.T) {
	var names []string
	var sum time.Duration
	req := Request{Plugin: books(t), Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`),
		Phases: func(n string, d time.Duration) {
			names = append(names, n)
			if d < 0 {
				t.Errorf("phase %s: %v", n, d)
			}
			sum += d
		}}
	t0 := time.Now()
	rec, err := sharedRunner(t).Run(context.Background(), req)
	took := time.Since(t0)
	if err != nil || !rec.OK {
		t.Fatal(err, rec.Error)
	}
	if !slices.Equal(names, PhaseNames) {
		t.Fatalf("phases told %v, want %v", names, PhaseNames)
	}
	if sum > took {
		t.Errorf("the phases add up to %v, the run took %v", sum, took)
	}
}
