package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/plugin-lsp/plugin-lsp/internal/runner"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// BenchmarkRunToolPhases: where a plugin.runTool of lookupBook goes over
// a real stdio-like transport (two OS pipes, the server's Serve on the
// library's header framing, a raw client writing prebuilt frames), phase
// by phase, paced (5 ms before each call) and back to back. The phases
// are read off one process's monotonic clock:
//
//	transport.in   the client's write of the request → the server's frame read
//	decode+lookup  frame read → runner.Run entered (message decode, dispatch,
//	               arguments, plugin and view lookup)
//	run            runner.Run (its own phases: the runner's BenchmarkRunPhases)
//	after-run      runner.Run returned → the answer handed to the stream (the
//	               record kept, the check scheduled, the record encoded)
//	write          the stream's Write (framing, the write into the pipe)
//	transport.out  the write's end → the client has read the whole frame
//
// decode and encode are also timed apart on the same bytes (the
// request's jsonrpc2.DecodeMessage, the record's json.Marshal). Medians in µs.
func BenchmarkRunToolPhases(b *testing.B) {
	r, err := runner.New(runner.Config{CacheDir: os.Getenv("PLUGIN_LSP_TEST_CACHE"), Env: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for _, mode := range []struct {
		name  string
		pause time.Duration
	}{{"paced", 5 * time.Millisecond}, {"b2b", 0}} {
		b.Run(mode.name, func(b *testing.B) { runToolPhases(b, r, mode.pause) })
	}
}

// stamps are the server side's clock readings of the call in flight.
type stamps struct {
	frameRead, runStart, runEnd, writeStart, writeEnd atomic.Int64
	lastFrame                                         atomic.Pointer[[]byte]
}

var benchEpoch = time.Now()

func nowNs() int64 { return int64(time.Since(benchEpoch)) }

// stampStream is the server's stream with the clock readings.
type stampStream struct {
	jsonrpc2.Stream
	frames frameReader
	st     *stamps
}

func (s stampStream) ReadFrame(ctx context.Context) ([]byte, int64, error) {
	b, n, err := s.frames.ReadFrame(ctx)
	s.st.frameRead.Store(nowNs())
	c := append([]byte(nil), b...)
	s.st.lastFrame.Store(&c)
	return b, n, err
}

func (s stampStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	// every write: the answer is the last one before the client reads it
	// (the check a run schedules waits for the debounce)
	s.st.writeStart.Store(nowNs())
	defer func() { s.st.writeEnd.Store(nowNs()) }()
	return s.Stream.Write(ctx, msg)
}

// stampRunner is the runner with the clock readings and the runner's phases.
type stampRunner struct {
	r      *runner.Runner
	st     *stamps
	phases func(string, time.Duration)
	last   atomic.Pointer[record.Record]
}

func (s *stampRunner) Run(ctx context.Context, req runner.Request) (*record.Record, error) {
	s.st.runStart.Store(nowNs())
	req.Phases = s.phases
	rec, err := s.r.Run(ctx, req)
	s.st.runEnd.Store(nowNs())
	s.last.Store(rec)
	return rec, err
}

// rawClient writes frames and reads them (wireReader), answering the
// server's requests.
type rawClient struct {
	tb testing.TB
	w  io.Writer
	r  *wireReader
	id int
}

func frame(v any) []byte {
	body, _ := json.Marshal(v)
	return append([]byte("Content-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"), body...)
}

func (c *rawClient) request(method string, params any) []byte {
	c.id++
	return frame(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
}

// await reads frames until the response to id.
func (c *rawClient) await(id int) (json.RawMessage, error) {
	for {
		m := c.r.next(c.tb)
		switch {
		case m.Method != "" && m.ID != nil:
			if _, err := c.w.Write(frame(map[string]any{"jsonrpc": "2.0", "id": *m.ID, "result": nil})); err != nil {
				return nil, err
			}
		case m.Method != "":
		case m.ID != nil && *m.ID == id:
			if m.Error != nil {
				return nil, fmt.Errorf("%d %s", m.Error.Code, m.Error.Message)
			}
			return m.Result, nil
		}
	}
}

func runToolPhases(b *testing.B, r *runner.Runner, pause time.Duration) {
	dir := copyExample(b)
	st := &stamps{}
	samples := map[string][]time.Duration{}
	tell := func(n string, d time.Duration) { samples["run."+n] = append(samples["run."+n], d) }
	sr := &stampRunner{r: r, st: st}
	srv := New(Options{Runner: sr, Debounce: DefaultDebounce})
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	inner := jsonrpc2.NewStream(stdioConn{inR, outW})
	done := make(chan int, 1)
	go func() { done <- srv.Serve(context.Background(), stampStream{inner, inner.(frameReader), st}) }()
	c := &rawClient{tb: b, w: inW, r: newWireReader(outR)}
	b.Cleanup(func() {
		_, _ = inW.Write(c.request("shutdown", nil))
		_, _ = c.await(c.id)
		_, _ = inW.Write(frame(map[string]any{"jsonrpc": "2.0", "method": "exit"}))
		<-done
		inW.Close()
		outW.Close()
	})
	uri := "file://" + dir
	if _, err := inW.Write(c.request("initialize", map[string]any{"processId": os.Getpid(), "rootUri": uri, "capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": uri, "name": "books"}}})); err != nil {
		b.Fatal(err)
	}
	if _, err := c.await(c.id); err != nil {
		b.Fatal(err)
	}
	_, _ = inW.Write(frame(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}))
	args := map[string]any{"dir": dir, "tool": "lookupBook", "input": json.RawMessage(`{"isbn":"978-0261103344"}`)}
	call := func(measure bool) {
		req := c.request("workspace/executeCommand", map[string]any{"command": CommandRunTool, "arguments": []any{args}})
		if measure {
			sr.phases = tell
		} else {
			sr.phases = nil
		}
		t0 := nowNs()
		if _, err := inW.Write(req); err != nil {
			b.Fatal(err)
		}
		res, err := c.await(c.id)
		t6 := nowNs()
		if err != nil || !strings.Contains(string(res), `"ok":true`) {
			b.Fatalf("%v %.300s", err, res)
		}
		if !measure {
			return
		}
		add := func(n string, from, to int64) { samples[n] = append(samples[n], time.Duration(to-from)) }
		add("transport.in", t0, st.frameRead.Load())
		add("decode+lookup", st.frameRead.Load(), st.runStart.Load())
		add("run", st.runStart.Load(), st.runEnd.Load())
		add("after-run", st.runEnd.Load(), st.writeStart.Load())
		add("write", st.writeStart.Load(), st.writeEnd.Load())
		add("transport.out", st.writeEnd.Load(), t6)
		add("total", t0, t6)
		// decode and encode apart, on the same bytes
		body := *st.lastFrame.Load()
		d0 := time.Now()
		_, _ = jsonrpc2.DecodeMessage(body)
		samples["decode-apart"] = append(samples["decode-apart"], time.Since(d0))
		rec := sr.last.Load()
		e0 := time.Now()
		_, _ = json.Marshal(rec)
		samples["encode-apart"] = append(samples["encode-apart"], time.Since(e0))
	}
	for i := 0; i < 20; i++ {
		call(false)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if pause > 0 {
			b.StopTimer()
			time.Sleep(pause)
			b.StartTimer()
		}
		call(true)
	}
	b.StopTimer()
	med := func(d []time.Duration) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2].Nanoseconds()) / 1000
	}
	for _, n := range []string{"transport.in", "decode+lookup", "run", "after-run", "write", "transport.out", "total", "decode-apart", "encode-apart"} {
		b.ReportMetric(med(samples[n]), n+"-µs")
	}
	for _, n := range runner.PhaseNames {
		if d := samples["run."+n]; len(d) > 0 {
			b.ReportMetric(med(d), "run."+n+"-µs")
		}
	}
}
