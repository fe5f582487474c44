package main

import (
	"fmt"
	"io"
)

// cmdReview is replaced by the review card (issue 2).
func cmdReview(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "plugin-lsp review: not built yet")
	return 2
}
