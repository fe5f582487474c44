package explore

import (
	"context"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// stops makes a tool's runs and stops the tool's exploration at a looping
// run (docs/rules.md, "Exploration"): when run n spends its budget of work
// (KindTicks), no run after it in the plan starts, the runs after it in
// flight are cancelled and what every run after it found is discarded
// (even a run that finished first); the runs before it finish, and when
// one of them spends its budget too the stop moves back to it. Runs start
// in plan order (a slot is taken before the next run is considered), so
// the stop is the first looping run of the plan and every run before it
// is made whole: the result is that of the runs up to and including it,
// however the runs were scheduled and whatever the machine's load. A tool
// that loops on every input makes at most Parallel runs to the budget.
type stops struct {
	mu      sync.Mutex
	stop    int                        // plan index of the first looping run; -1: none
	ends    map[int]ending             // how each run ended, by plan index
	cancels map[int]context.CancelFunc // the runs in flight
	short   bool                       // a run could not start: the tool's backstop or the caller's context
}

func newStops() *stops {
	return &stops{stop: -1, ends: map[int]ending{}, cancels: map[int]context.CancelFunc{}}
}

// runs makes the runs of a batch, numbered from first, in plan order, and
// reports which of them fetched.
func (s *stops) runs(x *Explorer, ctx context.Context, batch []planned, first int,
	run func(ctx context.Context, r planned, n int) (ending, bool)) []bool {
	fetched := make([]bool, len(batch))
	var wg sync.WaitGroup
	for i, r := range batch {
		n := first + i
		if s.stopped() {
			break
		}
		if !x.acquire(ctx) { // the tool's backstop or the caller's context
			s.mu.Lock()
			s.short = true
			s.mu.Unlock()
			break
		}
		runCtx, cancel := context.WithCancel(ctx)
		s.mu.Lock()
		if s.stop >= 0 { // a run looped while the slot was taken
			s.mu.Unlock()
			cancel()
			<-x.slots
			break
		}
		s.cancels[n] = cancel
		s.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The slot is given back after the stop is set: no run of
			// this tool starts once one looped.
			defer func() { <-x.slots }()
			end, f := run(runCtx, r, n)
			s.mu.Lock()
			defer s.mu.Unlock()
			delete(s.cancels, n)
			cancel()
			s.ends[n] = end
			fetched[i] = f
			if end == sandbox.KindTicks && (s.stop < 0 || n < s.stop) {
				s.stop = n
				for j, c := range s.cancels {
					if j > n {
						c()
					}
				}
			}
		}()
	}
	wg.Wait()
	return fetched
}

func (s *stops) stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stop >= 0
}

// outcome is how the runs that count (all of them, or those up to the
// stop) ended: complete, every one finished on its own; cut, one was cut
// by a backstop or a cancellation, or could not start. The runs after the
// stop do not count (they were cancelled, or their findings discarded).
func (s *stops) outcome() (complete, cut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	complete, cut = s.stop < 0, false
	if s.short && s.stop < 0 { // a run that could not start comes after the stop, if any
		complete, cut = false, true
	}
	for n, end := range s.ends {
		if s.stop >= 0 && n > s.stop {
			continue
		}
		complete = complete && end.finished()
		cut = cut || end.cut()
	}
	return complete, cut
}
