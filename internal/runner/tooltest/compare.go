package tooltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
	"sort"
	"strconv"
	"strings"
)

// maxFailures bounds the differences reported for one value.
const maxFailures = 50

// diffJSON compares want and got (JSON texts). exact: objects must have
// the same keys; otherwise extra keys in got are fine. Arrays must have
// the same length either way.
func diffJSON(root string, want, got json.RawMessage, exact bool) []testcase.Failure {
	var w, g any
	if err := decode(want, &w); err != nil {
		return []testcase.Failure{{Path: root, Message: "the expected value is not JSON: " + err.Error()}}
	}
	if err := decode(got, &g); err != nil {
		return []testcase.Failure{{Path: root, Message: "the actual value is not JSON: " + err.Error()}}
	}
	var out []testcase.Failure
	diffValue(root, w, g, exact, &out)
	if len(out) > maxFailures {
		n := len(out) - maxFailures
		out = append(out[:maxFailures], testcase.Failure{Path: root, Message: fmt.Sprintf("… and %d more differences", n)})
	}
	return out
}

func decode(raw json.RawMessage, v *any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		*v = nil
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	return d.Decode(v)
}

func diffValue(path string, w, g any, exact bool, out *[]testcase.Failure) {
	if len(*out) > maxFailures {
		return
	}
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			*out = append(*out, mismatch(path, w, g))
			return
		}
		for _, k := range sortedKeys(wv) {
			p := joinKey(path, k)
			gx, ok := gv[k]
			if !ok {
				*out = append(*out, testcase.Failure{Path: p, Message: "missing", Expected: text(wv[k])})
				continue
			}
			diffValue(p, wv[k], gx, exact, out)
		}
		if exact {
			for _, k := range sortedKeys(gv) {
				if _, ok := wv[k]; !ok {
					*out = append(*out, testcase.Failure{Path: joinKey(path, k), Message: "unexpected", Actual: text(gv[k])})
				}
			}
		}
	case []any:
		gv, ok := g.([]any)
		if !ok {
			*out = append(*out, mismatch(path, w, g))
			return
		}
		for i := 0; i < len(wv) && i < len(gv); i++ {
			diffValue(path+"["+strconv.Itoa(i)+"]", wv[i], gv[i], exact, out)
		}
		for i := len(gv); i < len(wv); i++ {
			*out = append(*out, testcase.Failure{Path: path + "[" + strconv.Itoa(i) + "]", Message: "missing", Expected: text(wv[i])})
		}
		for i := len(wv); i < len(gv); i++ {
			*out = append(*out, testcase.Failure{Path: path + "[" + strconv.Itoa(i) + "]", Message: "unexpected", Actual: text(gv[i])})
		}
	case json.Number:
		gn, ok := g.(json.Number)
		if !ok || !sameNumber(wv, gn) {
			*out = append(*out, mismatch(path, w, g))
		}
	default:
		if w != g {
			*out = append(*out, mismatch(path, w, g))
		}
	}
}

func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	fa, err1 := a.Float64()
	fb, err2 := b.Float64()
	return err1 == nil && err2 == nil && fa == fb
}

func mismatch(path string, w, g any) testcase.Failure {
	return testcase.Failure{Path: path, Message: "differs", Expected: text(w), Actual: text(g)}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// joinKey appends an object key the way people write paths: .name, or
// ["a key"] when the key is not an identifier.
func joinKey(path, k string) string {
	ident := k != ""
	for i, r := range k {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ident = false
			break
		}
	}
	if ident {
		return path + "." + k
	}
	return path + "[" + strconv.Quote(k) + "]"
}

// text is a value as compact JSON, clipped for messages.
func text(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// quoteJSON is a Go string as a JSON string.
func quoteJSON(s string) string { return text(s) }
