package main

import (
	"fmt"
	"io"
)

// cmdServe is replaced by the language server (issue 5).
func cmdServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "plugin-lsp serve: not built yet")
	return 2
}
