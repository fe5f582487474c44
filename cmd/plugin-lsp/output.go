package main

import (
	"fmt"
	"io"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// What the commands print passes through the project's one sanitiser
// (internal/text): a plugin's strings (manifest, page paths, test names,
// thrown messages) reach the terminal and CI logs with their controls and
// bidi characters shown (\x1b, <U+202E>), never raw. dispatch wraps stdout
// and stderr of every command (serve: only its log, stdout is the LSP
// stream);
// a command whose stdout is JSON, SARIF or JUnit switches it with
// outputFormat, which keeps the document valid and its data the same.

// sanitised wraps stdout and stderr in Terminal mode; flush writes what
// they hold back (the end of a cut UTF-8 sequence).
func sanitised(stdout, stderr io.Writer) (out, errw *text.Writer, flush func()) {
	out, errw = text.NewWriter(stdout, text.Terminal), text.NewWriter(stderr, text.Terminal)
	return out, errw, func() { out.Flush(); errw.Flush() }
}

// outputFormat sets the mode of a sanitised stdout for a command's output
// format (a writer that is not sanitised, as in tests, is left alone).
func outputFormat(w io.Writer, format string) {
	sw, ok := w.(*text.Writer)
	if !ok {
		return
	}
	switch format {
	case "json", "sarif":
		sw.SetMode(text.JSON)
	case "junit":
		sw.SetMode(text.XML)
	default:
		sw.SetMode(text.Terminal)
	}
}

// line is v printed for one line of output: a newline, CR or other
// control in it (a path, a name, an error quoting the plugin) is shown,
// so it cannot start a line of its own.
func line(v any) string { return text.Visible(fmt.Sprint(v)) }
