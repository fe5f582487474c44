package main

import (
	"fmt"
	"io"
)

// cmdCheck is replaced by the checker (issue 2).
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "plugin-lsp check: not built yet")
	return 2
}
