package explore

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// The corpora (testdata/corpus*): realistic plugins whose fetch lines
// carry //@hosts(a, b) (the hosts that call reaches when run) or
// //@hosts(DYNAMIC) (the host comes from the input or a response), and
// whose corpus.txt lists the capabilities.fetch entries no call uses
// ("unused: host"). The format is the one internal/checker/rules's
// TestCorpusScore reads; this scorer reads it again to score the checker
// with exploration, which the rules package cannot import.

var hostsMarker = regexp.MustCompile(`//@hosts\(([^)]*)\)`)

type corpusLine struct {
	plugin, file string
	line         int
	hosts        []string
	dynamic      bool
	// mayReach are the hosts a DYNAMIC call may reach, as path.Match
	// patterns: "DYNAMIC *.my.salesforce.com" bounds it, a bare DYNAMIC
	// (the whole host from the input or a response) is "*".
	mayReach []string
}

// dynamicPattern reads one DYNAMIC entry of //@hosts(…): the pattern of
// the hosts it may reach ("*" for any), ok false for a host entry.
func dynamicPattern(h string) (string, bool) {
	rest, ok := strings.CutPrefix(h, "DYNAMIC")
	if !ok || rest != "" && rest[0] != ' ' {
		return "", false
	}
	if rest = strings.TrimSpace(rest); rest == "" {
		rest = "*"
	}
	return rest, true
}

type score struct {
	undeclared, found    int
	falsePositives       int
	resolvable, resolved int
	dynamic, flagged     int
	unusedWant, unusedOK int
	unusedWrong          int
	unusedSilent         int // unused hosts a dynamic call may reach: no finding expected
	notes                []string
}

func (s score) String() string {
	return fmt.Sprintf("recall %.2f (%d/%d), false positives %d, resolved %.2f (%d/%d), dynamic flagged %d/%d, unused %d/%d found, %d wrong (%d more unused that a dynamic call may reach: silent)",
		ratio(s.found, s.undeclared), s.found, s.undeclared, s.falsePositives, ratio(s.resolved, s.resolvable), s.resolved, s.resolvable,
		s.flagged, s.dynamic, s.unusedOK, s.unusedWant, s.unusedWrong, s.unusedSilent)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func readLines(t *testing.T, dir, plugin string) []corpusLine {
	var out []corpusLine
	root := filepath.Join(dir, plugin)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".js")) {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			m := hostsMarker.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			cl := corpusLine{plugin: plugin, file: filepath.ToSlash(rel), line: n}
			for _, h := range strings.Split(m[1], ",") {
				if pat, ok := dynamicPattern(strings.TrimSpace(h)); ok {
					cl.dynamic = true
					cl.mayReach = append(cl.mayReach, pat)
				} else if h = strings.TrimSpace(h); h != "" {
					cl.hosts = append(cl.hosts, h)
				}
			}
			sort.Strings(cl.hosts)
			out = append(out, cl)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// scorePlugin scores the checker on one plugin with cfg (Explored set or
// not).
func scorePlugin(t *testing.T, s *score, dir, name string, p *checker.Plugin, cfg *checker.Config) {
	diags := checker.Run(p, rules.All(), cfg, checker.NewCache())
	allow := capability.FromManifest(p.Manifest).Allowlist()
	line := func(d checker.Diagnostic) int {
		f, err := p.ReadFile(d.File)
		if err != nil || d.File == checker.ManifestName && p.ManifestFile == nil {
			return 0
		}
		return f.Position(d.Span.Start).Line + 1
	}
	reach := map[string]rules.CallReach{}
	for _, r := range rules.FetchReach(p, cfg) {
		reach[fmt.Sprintf("%s:%d", r.File, r.Line)] = r
	}
	expect := map[string]bool{}
	for _, l := range readLines(t, dir, name) {
		key := fmt.Sprintf("%s:%d", l.file, l.line)
		if l.dynamic {
			s.dynamic++
			ok := false
			for _, d := range diags {
				if d.Code == rules.FetchDynamicURL.Code && d.File == l.file && line(d) == l.line {
					ok = true
				}
			}
			if ok {
				s.flagged++
			} else {
				s.notes = append(s.notes, fmt.Sprintf("%s/%s: input-dependent call not flagged", name, key))
			}
			// A mixed line (hosts and DYNAMIC): the hosts it names are
			// reached there too, so an undeclared one is expected at it.
		} else {
			s.resolvable++
			r, ok := reach[key]
			if ok && !r.Dynamic && strings.Join(r.Hosts, ",") == strings.Join(l.hosts, ",") {
				s.resolved++
			} else {
				s.notes = append(s.notes, fmt.Sprintf("%s/%s: want %v, have %v dynamic=%v (seen %v)", name, key, l.hosts, r.Hosts, r.Dynamic, ok))
			}
		}
		for _, h := range l.hosts {
			if _, r := allow.Check("https://" + h + "/"); r == nil {
				continue
			}
			s.undeclared++
			expect[key+" "+h] = true
			found := false
			for _, d := range diags {
				if d.Code == rules.FetchUndeclaredDomain.Code && d.File == l.file && line(d) == l.line && strings.HasPrefix(d.Message, h+" ") {
					found = true
				}
			}
			if found {
				s.found++
			} else {
				s.notes = append(s.notes, fmt.Sprintf("%s/%s: undeclared %s not reported there", name, key, h))
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range diags {
		if d.Code != rules.FetchUndeclaredDomain.Code || d.File == checker.ManifestName {
			continue
		}
		host, _, _ := strings.Cut(d.Message, " ")
		k := fmt.Sprintf("%s:%d %s", d.File, line(d), host)
		if !expect[k] && !seen[k] && !strings.Contains(d.Message, "fetches it for this page") {
			s.falsePositives++
			s.notes = append(s.notes, fmt.Sprintf("%s/%s: false positive: %s", name, k, d.Message))
		}
		seen[k] = true
	}
	// fetch-unused-domain is expected for the declared hosts no run
	// reached (corpus.txt, checked against runs by the runner's
	// TestCorporaAnnotationsMatchRuns) that no input-dependent call may
	// reach: the rule stays silent for those (issue 29), so expecting it
	// there would score the rule against its own definition.
	var mayReach []string
	for _, l := range readLines(t, dir, name) {
		mayReach = append(mayReach, l.mayReach...)
	}
	want := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, name, "corpus.txt")); err == nil {
		for _, ln := range strings.Split(string(b), "\n") {
			if h, ok := strings.CutPrefix(strings.TrimSpace(ln), "unused:"); ok {
				h = strings.TrimSpace(h)
				silent := false
				for _, pat := range mayReach {
					if ok, _ := path.Match(pat, h); ok {
						silent = true
					}
				}
				if silent {
					s.unusedSilent++
				} else {
					want[h] = true
				}
			}
		}
	}
	s.unusedWant += len(want)
	for _, d := range diags {
		if d.Code != rules.FetchUnusedDomain.Code {
			continue
		}
		if want[d.Subject] {
			s.unusedOK++
		} else {
			s.unusedWrong++
			s.notes = append(s.notes, fmt.Sprintf("%s: unexpected fetch-unused-domain for %q", name, d.Subject))
		}
	}
	_ = fetchurl.NormalizeDomain
}

// TestCorporaScore scores the checker on every corpus, static analysis
// alone (before) and with exploration (after), and holds each corpus to
// the issue's figures: recall ≥ 0.95, no false positive, ≥ 0.9 of the
// knowable calls resolved, every input-dependent call flagged,
// fetch-unused-domain exact; and to the recall and resolved figures it
// measured (measured), so that any drop fails. What is left unresolved
// is logged (t.Log).
func TestCorporaScore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the sandbox")
	}
	dirs, _ := filepath.Glob("../../../testdata/corpus*")
	if len(dirs) == 0 {
		t.Fatal("no corpus")
	}
	x, err := New(Options{CacheDir: testCache()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	var ticksMu sync.Mutex
	var ticks []int64 // of every run's call (sandbox.Outcome.Ticks)
	x.onRun = func(out sandbox.Outcome) {
		ticksMu.Lock()
		ticks = append(ticks, out.Ticks)
		ticksMu.Unlock()
	}
	defer func() {
		// The budget of work is far above what a real tool's run takes.
		if len(ticks) == 0 {
			t.Error("no run")
			return
		}
		slices.Sort(ticks)
		most := ticks[len(ticks)-1]
		t.Logf("%d runs: ticks median %d, max %d (budget %d)", len(ticks), ticks[len(ticks)/2], most, DefaultRunTicks)
		if most > DefaultRunTicks/20 {
			t.Errorf("a corpus run took %d ticks, over a 20th of the budget (%d)", most, DefaultRunTicks)
		}
	}()
	var scored []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var before, after score
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			p, err := checker.Load(nil, filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			scorePlugin(t, &before, dir, e.Name(), p, checker.DefaultConfig())
			cfg := checker.DefaultConfig()
			cfg.Explored = x.Plugin(context.Background(), p)
			scorePlugin(t, &after, dir, e.Name(), p, cfg)
		}
		name := filepath.Base(dir)
		for _, n := range after.notes {
			t.Logf("%s after: %s", name, n)
		}
		t.Logf("%s before (static): %s", name, before)
		t.Logf("%s after (static+exploration): %s", name, after)
		if after.resolvable+after.dynamic == 0 {
			t.Errorf("%s: no annotated fetch line", name)
			continue
		}
		scored = append(scored, name)
		floor, ok := measured[name]
		if !ok {
			t.Errorf("%s: no measured figures: add them to measured", name)
		}
		floor.recall = max(floor.recall, issueTarget.recall) - 1e-9
		floor.resolved = max(floor.resolved, issueTarget.resolved) - 1e-9
		if r := ratio(after.found, after.undeclared); r < floor.recall {
			t.Errorf("%s: recall %.2f < %.2f", name, r, floor.recall)
		}
		if after.falsePositives > floor.falsePositives {
			t.Errorf("%s: %d false positives > %d", name, after.falsePositives, floor.falsePositives)
		}
		if r := ratio(after.resolved, after.resolvable); r < floor.resolved {
			t.Errorf("%s: resolved %.2f < %.2f", name, r, floor.resolved)
		}
		if after.dynamic-after.flagged > floor.dynamicMissed {
			t.Errorf("%s: %d input-dependent calls not flagged > %d", name, after.dynamic-after.flagged, floor.dynamicMissed)
		}
		if miss := after.unusedWrong + after.unusedWant - after.unusedOK; miss > floor.unusedErrors {
			t.Errorf("%s: fetch-unused-domain %d wrong or missed > %d", name, miss, floor.unusedErrors)
		}
		// exploration never makes a corpus worse
		if after.found < before.found || after.falsePositives > before.falsePositives || after.flagged < before.flagged {
			t.Errorf("%s: exploration lost ground: before %s; after %s", name, before, after)
		}
	}
	sort.Strings(scored)
	if want := []string{"corpus", "corpus-b", "corpus-c"}; strings.Join(scored, " ") != strings.Join(want, " ") {
		t.Errorf("scored %v, want %v", scored, want)
	}
}

type target struct {
	recall, resolved              float64
	falsePositives, dynamicMissed int
	unusedErrors                  int
}

// issueTarget is what every corpus is held to (issue 29).
var issueTarget = target{recall: 0.95, resolved: 0.9}

// measured are the figures each corpus reaches (static analysis and
// exploration together), above issueTarget: a change that lowers one
// fails, and raising them is how an improvement is kept. Every corpus is
// held to issueTarget too, and to no false positive, every input-dependent
// call flagged and fetch-unused-domain exact.
var measured = map[string]target{
	"corpus":   {recall: 1, resolved: 1},
	"corpus-b": {recall: 1, resolved: 24.0 / 26},
	"corpus-c": {recall: 1, resolved: 23.0 / 25},
}

func testCache() string {
	return os.Getenv("PLUGIN_LSP_TEST_CACHE") // "": the user cache, "-": none
}
