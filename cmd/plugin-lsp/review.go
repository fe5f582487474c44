package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

func cmdReview(args []string, stdout, stderr io.Writer) int {
	spec := cmdSpec("review")
	o, err := parseCheckArgs(spec, args)
	if err == errHelp {
		fmt.Fprint(stdout, spec.usage())
		return 0
	}
	if err == nil && len(o.dirs) != 1 {
		err = fmt.Errorf("want exactly one plugin directory, got %d", len(o.dirs))
	}
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp review: %v\n\n%s", err, spec.usage())
		return 2
	}
	outputFormat(stdout, o.format)
	cfg, err := loadConfig(o.builtins)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp review: --builtins: %v\n", err)
		return 2
	}
	dir := o.dirs[0]
	p, err := checker.Load(nil, dir)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp review: %v\n", err)
		return 2
	}
	// The approver should know when the checker finds errors: they are
	// listed on the card's problems.
	res := checker.CheckOne(dir, cfg, checker.NewCache(), rules.All())
	diags := make([]checker.Diagnostic, len(res.Diags))
	for i, d := range res.Diags {
		diags[i] = d.Diagnostic
	}
	card, hasErrors, err := review.ForApproval(p, diags)
	if err != nil {
		fmt.Fprintf(stderr, "plugin-lsp review: %s: cannot hash the source tree: %v\n", dir, err)
		return 1
	}
	exit := 0
	if hasErrors {
		exit = 1
	}
	if o.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(card); err != nil {
			fmt.Fprintf(stderr, "plugin-lsp review: %v\n", err)
			return 1
		}
		return exit
	}
	fmt.Fprint(stdout, card.Text())
	return exit
}
