package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// The parallel-big-response case: a page starts 32 fetches at once of a
// loopback server answering 16 MiB each (the largest fetchMaxBytes), with
// a 5 s deadline. It runs in a child process (this test binary with
// PLUGIN_LSP_CHILD_BIGRESP set) so that its peak RSS is its own.

const bigRespPage = `export default async function () {
  const rs = await Promise.all(Array.from({ length: 32 }, (_, i) => http.fetch("https://huge.example.com/" + i).then((r) => r.text().then((t) => t.length), (e) => String(e))));
  return rs;
}
`

type bigRespFigures struct {
	WallMs float64 `json:"wallMs"`
	PeakMB float64 `json:"peakRssMB"`
	// SandboxMB is the sandbox's linear memory at the end (its peak).
	SandboxMB float64 `json:"sandboxMB"`
	OK        bool    `json:"ok"`
	Error     string  `json:"error"`
	Refused   int     `json:"refused"`
	Fetched   int     `json:"fetched"`
}

// bigRespChild runs the case once and prints its figures as JSON.
func bigRespChild() int {
	// One shared body: the server's own memory stays out of the figure.
	size := 16 << 20
	if v, err := strconv.Atoi(os.Getenv("PLUGIN_LSP_CHILD_BIGRESP")); err == nil && v > 1 {
		size = v // a smaller body: the baseline
	}
	body := []byte(strings.Repeat("b", size))
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}))
	srv.StartTLS()
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	var d net.Dialer
	client := srv.Client()
	r, err := New(Config{CacheDir: "-", Spare: -1, Env: func(string) string { return "" }, Network: broker.NetworkOptions{
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
		RootCAs: client.Transport.(*http.Transport).TLSClientConfig.RootCAs,
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	dir, _ := os.MkdirTemp("", "bigresp")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "code", "big.ts"), []byte(bigRespPage), 0o644)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"big","version":"1.0.0","tools":[{"name":"big","page":"code/big"}],
	  "capabilities":{"host":["http.fetch"],"fetch":[{"domain":"huge.example.com","fetchMaxBytes":16777216,"fetchTimeoutMs":60000}]}}`), 0o644)
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	start := time.Now()
	rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "big", Providers: "real", Timeout: 5 * time.Second})
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	f := bigRespFigures{WallMs: float64(wall.Microseconds()) / 1000, PeakMB: peakRSSMB(), OK: rec.OK, SandboxMB: float64(rec.Usage.MemoryPeakBytes) / (1 << 20)}
	if rec.Error != nil {
		f.Error = rec.Error.Name + ": " + checker.Elide(rec.Error.Message, 200)
	}
	for _, e := range rec.Fetches {
		if e.Refused != "" || e.Error != "" {
			f.Refused++
		} else {
			f.Fetched++
		}
	}
	json.NewEncoder(os.Stdout).Encode(f)
	return 0
}

// peakRSSMB is the process's peak resident set (VmHWM), in MB.
func peakRSSMB() float64 {
	fh, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return float64(kb) / 1024
		}
	}
	return -1
}

func runBigRespChild(tb testing.TB) bigRespFigures {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PLUGIN_LSP_CHILD_BIGRESP=1")
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("child: %v\n%s", err, out)
	}
	var f bigRespFigures
	if err := json.Unmarshal(out, &f); err != nil {
		tb.Fatalf("child output %q: %v", out, err)
	}
	return f
}

// BenchmarkParallelBigResponses prints the case's wall time and peak RSS
// (medians over b.N child processes). The test server runs in the same
// process (its 16 MiB body and TLS buffers are in the figure);
// scripts/bench-bigresp.sh measures the same case through `plugin-lsp run`
// against a server in another process.
func BenchmarkParallelBigResponses(b *testing.B) {
	var walls, peaks []float64
	for b.Loop() {
		f := runBigRespChild(b)
		walls, peaks = append(walls, f.WallMs), append(peaks, f.PeakMB)
		b.Logf("%+v", f)
	}
	sort.Float64s(walls)
	sort.Float64s(peaks)
	b.ReportMetric(walls[len(walls)/2], "wall-ms")
	b.ReportMetric(peaks[len(peaks)/2], "peak-rss-MB")
}
