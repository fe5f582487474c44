package rules

import (
	"math"
	"strconv"

	"github.com/plugin-lsp/plugin-lsp/analysis"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/analysis/jsonpos"
)

// FetchLimitRange reports fetchMaxBytes / fetchTimeoutMs outside their range.
var FetchLimitRange = &analysis.Rule{
	Code:     "fetch-limit-range",
	Severity: analysis.Error,
	Title:    "fetch limit out of range",
	Doc: "Each `capabilities.fetch` entry may set its own caps: `fetchMaxBytes` (1 to 16777216 = 16 MiB, " +
		"default 1 MiB) and `fetchTimeoutMs` (1 to 60000, default 10000). The broker enforces at most the " +
		"upper bounds whatever the manifest says, so a larger value only misleads the reader; zero or a " +
		"negative value would refuse every response.",
	Lang:   "json",
	Before: "\"fetch\": [{ \"domain\": \"covers.openlibrary.org\", \"fetchMaxBytes\": 104857600, \"fetchTimeoutMs\": 120000 }]",
	After:  "\"fetch\": [{ \"domain\": \"covers.openlibrary.org\", \"fetchMaxBytes\": 16777216, \"fetchTimeoutMs\": 60000 }]",
	Fix:    "Clamp: a value above the limit becomes the limit; zero or a negative value becomes the default.",
	Run: func(pass *analysis.Pass) {
		for _, fc := range pass.Plugin.Manifest.Fetch {
			checkLimit(pass, fc.MaxBytes, "fetchMaxBytes", analysis.MaxFetchMaxBytes, analysis.DefaultFetchMaxBytes, "bytes (16 MiB)")
			checkLimit(pass, fc.TimeoutMs, "fetchTimeoutMs", analysis.MaxFetchTimeoutMs, analysis.DefaultFetchTimeoutMs, "ms")
		}
	},
}

func checkLimit(pass *analysis.Pass, n *jsonpos.Node, key string, max, def int64, unit string) {
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
	d := analysis.Diagnostic{File: analysis.ManifestName, Span: analysis.SpanOf(n), Message: msg}
	if e, err := jsonedit.Replace(pass.Plugin.ManifestFile, n, strconv.FormatInt(to, 10)); err == nil {
		d.Fixes = []analysis.Fix{{Title: title, Edits: []analysis.Edit{e}}}
	}
	pass.Report(d)
}
