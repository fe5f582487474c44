package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/fixes"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

// fixPlugins runs check --fix (diff false: write the fixes, report each,
// then let check print what is left; code is 1 when the writer refused a
// fix's file) or check --diff (print the patch and finish: done is true,
// code is 1 when errors would remain).
func fixPlugins(dirs []string, cfg *checker.Config, diff bool, stdout, stderr io.Writer) (code int, done bool) {
	cache := checker.NewCache()
	all := rules.All()
	var patch strings.Builder
	for _, dir := range dirs {
		res, err := fixes.FixAll(dir, fixes.Options{Rules: all, Config: cfg, Cache: cache})
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %s: %s\n", line(dir), line(err))
			code = 1
			continue
		}
		if diff {
			printRefused(stderr, dir, res)
			for _, rel := range sortedKeys(res.After) {
				shown := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))
				patch.WriteString(fixes.Diff(shown, res.Before[rel], res.After[rel]))
			}
			if checker.HasErrors(res.Diags) {
				code = 1
			}
			continue
		}
		err = fixes.Write(dir, res)
		if printRefused(stderr, dir, res) {
			code = max(code, 1)
		}
		if err != nil {
			fmt.Fprintf(stderr, "plugin-lsp check: %s: writing the fixes: %s\n", line(dir), line(err))
			code = 2
			continue
		}
		for _, ch := range res.Applied {
			fmt.Fprintln(stderr, line(fmt.Sprintf("%s:%d: fixed [%s]: %s (%s)", filepath.Join(dir, filepath.FromSlash(ch.File)), ch.Line, ch.Code, ch.Title, strings.Join(ch.Files, ", "))))
		}
	}
	if diff {
		io.WriteString(stdout, patch.String())
		return code, true
	}
	if code == 2 {
		return code, true
	}
	return code, false
}

// printRefused prints the fixes not applied, and reports whether the
// writer refused one (a symlink on the way, "..": check --fix then fails).
func printRefused(stderr io.Writer, dir string, res *fixes.Result) (unwritable bool) {
	for _, ch := range res.Refused {
		fmt.Fprintln(stderr, line(fmt.Sprintf("%s:%d: not fixed [%s]: %s: %s", filepath.Join(dir, filepath.FromSlash(ch.File)), ch.Line, ch.Code, ch.Title, ch.Why)))
		unwritable = unwritable || ch.Unwritable
	}
	return unwritable
}

func sortedKeys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
