package rules

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jspage"
)

// corpusDir holds realistic plugins (API clients written the way public
// SDKs are: shared lib files, base-URL helpers, classes, region
// switches). Every line with an http.fetch carries //@hosts(a, b) with
// the hosts that call can reach when run, or //@hosts(DYNAMIC) when the
// host comes from the input or a response; corpus.txt lists the
// capabilities.fetch entries that no call uses ("unused: host").
const corpusDir = "../../../testdata/corpus"

// corpusLine is one annotated fetch line.
type corpusLine struct {
	plugin, file string
	line         int // 1-based
	hosts        []string
	dynamic      bool
}

var hostsMarker = regexp.MustCompile(`//@hosts\(([^)]*)\)`)

// readCorpus returns the corpus plugins and their annotated lines.
func readCorpus(t testing.TB) (plugins []string, lines []corpusLine) {
	t.Helper()
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		plugins = append(plugins, e.Name())
		root := filepath.Join(corpusDir, e.Name())
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
				cl := corpusLine{plugin: e.Name(), file: filepath.ToSlash(rel), line: n}
				for _, h := range strings.Split(m[1], ",") {
					if h = strings.TrimSpace(h); h == "DYNAMIC" {
						cl.dynamic = true
					} else if h != "" {
						cl.hosts = append(cl.hosts, h)
					}
				}
				sort.Strings(cl.hosts)
				lines = append(lines, cl)
			}
			return sc.Err()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return plugins, lines
}

// corpusScore is what TestCorpusScore measures.
type corpusScore struct {
	undeclared, undeclaredFound int // (line, host) pairs the broker refuses; found at that line
	falsePositives              int // fetch-undeclared-domain findings not expected
	resolvable, resolved        int // lines whose hosts are known from the code; predicted exactly
	dynamic, dynamicFlagged     int // input-dependent lines; flagged by fetch-dynamic-url
	unusedExpected, unusedFound int // expected fetch-unused-domain findings; found
	unusedWrong                 int // fetch-unused-domain findings not expected
	notes                       []string
}

func scoreCorpus(t testing.TB) corpusScore {
	plugins, lines := readCorpus(t)
	var s corpusScore
	byPlugin := map[string][]corpusLine{}
	for _, l := range lines {
		byPlugin[l.plugin] = append(byPlugin[l.plugin], l)
	}
	for _, name := range plugins {
		dir := filepath.Join(corpusDir, name)
		p, diags := checkDir(t, dir)
		for _, d := range diags {
			if strings.HasPrefix(d.Code, "manifest-") || d.Code == PageSyntax.Code {
				t.Errorf("%s: the corpus must be valid plugins: %s [%s]", name, d.Message, d.Code)
			}
		}
		allow := allowlist(p)
		at := func(d checker.Diagnostic) (string, int) {
			f := fileOf(p, d.File)
			if f == nil {
				return d.File, 0
			}
			return d.File, f.Position(d.Span.Start).Line + 1
		}
		// What the analysis predicts for each line: the union over every
		// page bundle that reaches it.
		type pred struct {
			hosts   map[string]bool
			dynamic bool
		}
		preds := map[string]*pred{}
		pass := &checker.Pass{Plugin: p, Config: checker.DefaultConfig(), Cache: checker.NewCache()}
		for _, pi := range loadPages(pass) {
			for _, c := range fetchCalls(pi) {
				file := callFile(pi, c)
				f := fileOf(p, file)
				if f == nil {
					continue
				}
				key := fmt.Sprintf("%s:%d", file, f.Position(c.Span.Start).Line+1)
				pr := preds[key]
				if pr == nil {
					pr = &pred{hosts: map[string]bool{}}
					preds[key] = pr
				}
				hosts, dyn := callHosts(c)
				for _, h := range hosts {
					pr.hosts[h] = true
				}
				pr.dynamic = pr.dynamic || dyn
			}
		}
		expectUndeclared := map[string]bool{}
		for _, l := range byPlugin[name] {
			key := fmt.Sprintf("%s:%d", l.file, l.line)
			pr := preds[key]
			if l.dynamic {
				s.dynamic++
				flagged := false
				for _, d := range diags {
					if f, n := at(d); d.Code == FetchDynamicURL.Code && f == l.file && n == l.line {
						flagged = true
					}
				}
				if flagged {
					s.dynamicFlagged++
				} else {
					s.notes = append(s.notes, fmt.Sprintf("%s/%s: input-dependent call not flagged", name, key))
				}
				continue
			}
			s.resolvable++
			var got []string
			if pr != nil {
				for h := range pr.hosts {
					got = append(got, h)
				}
				sort.Strings(got)
			}
			if pr != nil && !pr.dynamic && strings.Join(got, ",") == strings.Join(l.hosts, ",") {
				s.resolved++
			} else {
				what := "not analysed"
				if pr != nil {
					what = fmt.Sprintf("predicted %v dynamic=%v", got, pr.dynamic)
				}
				s.notes = append(s.notes, fmt.Sprintf("%s/%s: want %v, %s", name, key, l.hosts, what))
			}
			for _, h := range l.hosts {
				if _, r := allow.Check("https://" + h + "/"); r == nil {
					continue
				}
				s.undeclared++
				expectUndeclared[key+" "+h] = true
				found := false
				for _, d := range diags {
					if f, n := at(d); d.Code == FetchUndeclaredDomain.Code && f == l.file && n == l.line && strings.HasPrefix(d.Message, h+" ") {
						found = true
					}
				}
				if found {
					s.undeclaredFound++
				} else {
					s.notes = append(s.notes, fmt.Sprintf("%s/%s: undeclared %s not reported there", name, key, h))
				}
			}
		}
		seen := map[string]bool{}
		for _, d := range diags {
			if d.Code != FetchUndeclaredDomain.Code || d.File == checker.ManifestName {
				continue
			}
			f, n := at(d)
			host, _, _ := strings.Cut(d.Message, " ")
			k := fmt.Sprintf("%s:%d %s", f, n, host)
			if !expectUndeclared[k] && !seen[k] {
				s.falsePositives++
				s.notes = append(s.notes, fmt.Sprintf("%s/%s: false positive: %s", name, k, d.Message))
			}
			seen[k] = true
		}
		// fetch-unused-domain: exactly the hosts corpus.txt lists.
		want := map[string]bool{}
		if b, err := os.ReadFile(filepath.Join(dir, "corpus.txt")); err == nil {
			for _, ln := range strings.Split(string(b), "\n") {
				if h, ok := strings.CutPrefix(strings.TrimSpace(ln), "unused:"); ok {
					want[strings.TrimSpace(h)] = true
				}
			}
		}
		s.unusedExpected += len(want)
		for _, d := range diags {
			if d.Code != FetchUnusedDomain.Code {
				continue
			}
			host := ""
			for _, fc := range p.Manifest.Fetch {
				if dom, ok := checker.Str(fc.Domain); ok && checker.SpanOf(fc.Domain) == d.Span {
					host, _ = fetchurl.NormalizeDomain(dom)
				}
			}
			if want[host] {
				s.unusedFound++
			} else {
				s.unusedWrong++
				s.notes = append(s.notes, fmt.Sprintf("%s: unexpected fetch-unused-domain for %q", name, host))
			}
		}
	}
	return s
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestCorpusScore scores the page analysis on the corpus and holds it at
// (or above) the figures it reached when last measured. The targets of
// the analysis are recall ≥ 0.95, no false positive, ≥ 0.9 of the
// resolvable calls resolved, every input-dependent call flagged and
// fetch-unused-domain exact; the floors below record where it stands.
func TestCorpusScore(t *testing.T) {
	s := scoreCorpus(t)
	for _, n := range s.notes {
		t.Log(n)
	}
	t.Logf("undeclared hosts found at their line: %d/%d (recall %.2f)", s.undeclaredFound, s.undeclared, ratio(s.undeclaredFound, s.undeclared))
	t.Logf("false positives: %d", s.falsePositives)
	t.Logf("resolvable calls resolved exactly: %d/%d (%.2f)", s.resolved, s.resolvable, ratio(s.resolved, s.resolvable))
	t.Logf("input-dependent calls flagged: %d/%d", s.dynamicFlagged, s.dynamic)
	t.Logf("fetch-unused-domain: %d/%d expected found, %d wrong", s.unusedFound, s.unusedExpected, s.unusedWrong)
	if s.resolvable+s.dynamic < 30 {
		t.Fatalf("the corpus has %d annotated fetch lines; want at least 30", s.resolvable+s.dynamic)
	}
	floor := corpusFloor
	if r := ratio(s.undeclaredFound, s.undeclared); r < floor.recall {
		t.Errorf("recall of undeclared hosts %.2f < %.2f", r, floor.recall)
	}
	if s.falsePositives > floor.falsePositives {
		t.Errorf("%d false positives > %d", s.falsePositives, floor.falsePositives)
	}
	if r := ratio(s.resolved, s.resolvable); r < floor.resolved {
		t.Errorf("resolved share %.2f < %.2f", r, floor.resolved)
	}
	if s.dynamic-s.dynamicFlagged > floor.dynamicMissed {
		t.Errorf("%d input-dependent calls not flagged > %d", s.dynamic-s.dynamicFlagged, floor.dynamicMissed)
	}
	if s.unusedWrong+(s.unusedExpected-s.unusedFound) > floor.unusedErrors {
		t.Errorf("fetch-unused-domain: %d wrong, %d missed (> %d)", s.unusedWrong, s.unusedExpected-s.unusedFound, floor.unusedErrors)
	}
}

// corpusFloor is the score last measured (see the report of issue 10):
// raise it when the analysis improves; never lower it to make a change pass.
var corpusFloor = struct {
	recall, resolved              float64
	falsePositives, dynamicMissed int
	unusedErrors                  int
}{recall: 1, resolved: 0.96, falsePositives: 0, dynamicMissed: 0, unusedErrors: 0}

// callHosts returns the hosts a fetch call may reach, and whether it may
// also reach hosts not known statically.
func callHosts(c jspage.HostCall) (hosts []string, dynamic bool) {
	for _, t := range urlTargets(c.URL) {
		switch {
		case t.host != "":
			hosts = append(hosts, t.host)
		case !t.relative:
			dynamic = true
		}
	}
	return hosts, dynamic
}
