package rules

import (
	"math"
	"strconv"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// FetchLimitRange reports fetchMaxBytes / fetchTimeoutMs outside their range.
var FetchLimitRange = &checker.Rule{
	Code:     "fetch-limit-range",
	Severity: checker.Error,
	Title:    "fetch limit out of range",
	Doc: "Each `capabilities.fetch` entry may set its own caps: `fetchMaxBytes` (1 to 16777216 = 16 MiB, " +
		"default 1 MiB) and `fetchTimeoutMs` (1 to 60000, default 10000). The broker enforces at most the " +
		"upper bounds whatever the manifest says, so a larger value only misleads the reader; zero or a " +
		"negative value would refuse every response.",
	Lang:   "json",
	Before: "\"fetch\": [{ \"domain\": \"covers.openlibrary.org\", \"fetchMaxBytes\": 104857600, \"fetchTimeoutMs\": 120000 }]",
	After:  "\"fetch\": [{ \"domain\": \"covers.openlibrary.org\", \"fetchMaxBytes\": 16777216, \"fetchTimeoutMs\": 60000 }]",
	Fix:    "Clamp: a value above the limit becomes the limit; zero or a negative value becomes the default.",
	Run: func(pass *checker.Pass) {
		for _, fc := range pass.Plugin.Manifest.Fetch {
			checkLimit(pass, fc.MaxBytes, "fetchMaxBytes", checker.MaxFetchMaxBytes, checker.DefaultFetchMaxBytes, "bytes (16 MiB)")
			checkLimit(pass, fc.TimeoutMs, "fetchTimeoutMs", checker.MaxFetchTimeoutMs, checker.DefaultFetchTimeoutMs, "ms")
		}
	},
}

func checkLimit(pass *checker.Pass, n *jsonpos.Node, key string, max, def int64, unit string) {
	if n == nil || n.Kind != jsonpos.Number {
		return // manifest-schema reports the type
	}
	f, err := strconv.ParseFloat(n.Raw, 64)
	if err != nil && !math.IsInf(f, 0) {
		return
	}
	if f != math.Trunc(f) && !math.IsInf(f, 0) {
		return // not an integer: manifest-schema
	}
	var msg, title string
	var to int64
	switch {
	case f > float64(max):
		msg = key + " " + n.Raw + " is above the limit of " + strconv.FormatInt(max, 10) + " " + unit + "; the broker never allows more"
		to, title = max, "Clamp to "+strconv.FormatInt(max, 10)
	case f < 1:
		msg = key + " " + n.Raw + " must be at least 1; leave it out for the default of " + strconv.FormatInt(def, 10)
		to, title = def, "Use the default "+strconv.FormatInt(def, 10)
	default:
		return
	}
	d := checker.Diagnostic{File: checker.ManifestName, Span: checker.SpanOf(n), Message: msg}
	if e, err := jsonedit.Replace(pass.Plugin.ManifestFile, n, strconv.FormatInt(to, 10)); err == nil {
		d.Fixes = []checker.Fix{{Title: title, Edits: []checker.Edit{e}}}
	}
	pass.Report(d)
}
