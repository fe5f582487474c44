package main

import (
	"fmt"
	"io"
)

// cmdRun is replaced by the sandbox runner (issue 4).
func cmdRun(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "plugin-lsp run: not built yet")
	return 2
}
