package checker

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// readCorpus reads one description per line ("\n" stands for a line
// break; lines starting with # are comments).
func readCorpus(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open("testdata/agenttext/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, strings.ReplaceAll(l, `\n`, "\n"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestInstructionCorpus scores the text-instructions patterns on the
// corpus: precision (of the descriptions flagged, how many are poisoned)
// and recall (of the poisoned, how many are flagged), both asserted.
func TestInstructionCorpus(t *testing.T) {
	clean := readCorpus(t, "clean.txt")
	poisoned := readCorpus(t, "poisoned.txt")
	if len(clean) < 200 || len(poisoned) < 50 {
		t.Fatalf("corpus too small: %d clean, %d poisoned (want ≥ 200 and ≥ 50)", len(clean), len(poisoned))
	}
	tp, fp := 0, 0
	for _, s := range clean {
		if f := Instructions(s); len(f) > 0 {
			fp++
			t.Errorf("false positive (%s: %q) in %q", f[0].What, s[f[0].Start:f[0].End], s)
		}
	}
	classes := map[string]int{}
	for _, s := range poisoned {
		f := Instructions(s)
		if len(f) == 0 {
			t.Errorf("missed: %q", s)
			continue
		}
		tp++
		for _, x := range f {
			classes[x.Class]++
		}
	}
	fn := len(poisoned) - tp
	precision := float64(tp) / float64(max(tp+fp, 1))
	recall := float64(tp) / float64(len(poisoned))
	t.Logf("corpus: %d clean, %d poisoned; flagged %d poisoned (%d missed), %d clean; precision %.3f, recall %.3f; findings by class %v",
		len(clean), len(poisoned), tp, fn, fp, precision, recall, classes)
	if precision < 0.98 || recall < 0.95 {
		t.Errorf("precision %.3f (want ≥ 0.98), recall %.3f (want ≥ 0.95)", precision, recall)
	}
	for _, c := range []string{InstrImperative, InstrSecrecy, InstrToolOrder, InstrExfiltrate, InstrHiddenBlock} {
		if classes[c] == 0 {
			t.Errorf("no poisoned description exercises class %s", c)
		}
	}
}
