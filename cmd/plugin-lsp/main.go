// Command plugin-lsp is the language server, checker and sandbox runner for
// agent-plugin authors. This package only parses flags and wires packages
// together (docs/architecture.md): each command is an entry of the command
// table (commands.go) and a file of its own; the work is in internal/.
package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// terminalHint is printed to stderr when plugin-lsp is started with no
// command from a terminal: serve then waits for an LSP client, which looks
// like a hang to a person.
const terminalHint = "plugin-lsp: serving LSP on stdin/stdout for an editor (Ctrl+D or Ctrl+C to stop); run `plugin-lsp help` for the commands\n"

// version is the release this source tree builds (SARIF wants a numeric
// one); a release build may override it with -ldflags "-X main.version=…".
var version = "0.1.0"

func main() {
	if len(os.Args) == 1 && term.IsTerminal(int(os.Stdin.Fd())) {
		fmt.Fprint(os.Stderr, terminalHint)
	}
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// dispatch runs one subcommand and returns the exit code: 0 success, 1 the
// command's own failure (errors found, tool threw), 2 bad usage.
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "--version":
		cmd = "version"
	case "-h", "--help":
		cmd = "help"
	}
	c := lookup(cmd)
	if c != nil && c.name == "serve" {
		// stdout is the LSP stream; the log is shown in the editor.
		log := text.NewWriter(stderr, text.Terminal)
		defer log.Flush()
		return c.run(args, stdin, stdout, log)
	}
	sout, serr, flush := sanitised(stdout, stderr)
	defer flush()
	if c == nil {
		fmt.Fprintf(serr, "plugin-lsp: unknown command %q\n\n%s", cmd, mainUsage())
		return 2
	}
	return c.run(args, stdin, sout, serr)
}

// cmdVersion prints the version.
func cmdVersion(_ []string, _ io.Reader, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, "plugin-lsp", version)
	return 0
}

// cmdHelp prints the command list, or with an argument that command's usage.
func cmdHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, mainUsage())
		return 0
	case len(args) == 1 && lookup(args[0]) != nil:
		fmt.Fprint(stdout, lookup(args[0]).usage())
		return 0
	case len(args) == 1:
		fmt.Fprintf(stderr, "plugin-lsp help: unknown command %q\n\n%s", args[0], mainUsage())
	default:
		fmt.Fprintf(stderr, "plugin-lsp help: one COMMAND at most, got %d\n", len(args))
	}
	return 2
}
