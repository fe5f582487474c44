package main

import (
	"fmt"
	"io"
	"strings"
)

// The command table is the one definition of the CLI's surface: the
// argument parser of each command (command.parse), `plugin-lsp help`,
// `plugin-lsp help CMD` and `CMD -h` all read it, and a test compares it
// with the command lists of README.md and docs/*.md. A flag exists when it
// is in this table, and only then.

// A command is one subcommand of plugin-lsp.
type command struct {
	name    string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int // what dispatch calls
	args    string                                                             // the positional arguments of the synopsis ("DIR...")
	summary string                                                             // its line in `plugin-lsp help`
	about   string                                                             // the text of `help CMD` between the synopsis and the flags
	flags   []flagDef
}

// A flagDef is one flag of a command.
type flagDef struct {
	name  string // without dashes; given as --name, -name, --name=V
	alias string // another spelling ("u" for --update), or ""
	value string // the value's placeholder ("FILE", "text|json"); "" for a flag without a value
	help  string // its text in `help CMD` (wrapped there; a \n is a space)
	// rel places the flag in the synopsis relative to the flag before it:
	// an alternative ("[--fix | --diff]") or a flag that only goes with it
	// ("[--providers fake|real [--record]]").
	rel flagRel
}

type flagRel int

const (
	relNone flagRel = iota
	relOr           // excludes the previous flag: "[--fix | --diff]"
	relWith         // only with the previous flag: "[--providers P [--record]]"
)

// commands lists the subcommands in the order `help` prints them. It is
// set by init from commandTable: the commands' functions read the table
// (cmdSpec), so a package-level initializer naming them would be a cycle.
var commands []*command

func init() { commands = commandTable() }

func commandTable() []*command {
	return []*command{
		{
			name:    "serve",
			run:     cmdServe,
			summary: "language server over stdio (the default command)",
			about: "Speaks LSP over stdin/stdout for an editor (docs/lsp.md). Started without\n" +
				"a command, plugin-lsp serves too.",
			flags: []flagDef{
				{name: "debounce", value: "D", help: "delay between an edit and its check, a Go duration\n(default 100ms; 0 checks at once)"},
				{name: "docs-url", value: "URL", help: "base URL of the rule docs linked from each diagnostic\n(default: docs/rules.md above the executable or the\nworking directory, as a file:// URL, when found)"},
				{name: "stdio", help: "serve over stdin/stdout (the only transport; accepted\nfor clients that pass it)"},
			},
		},
		{
			name:    "check",
			run:     withoutStdin(cmdCheck),
			args:    "DIR...",
			summary: "check plugins; exit 1 on any error",
			about: "Checks every plugin at or below each DIR (a directory holding plugin.json,\n" +
				"a directory of plugins, or a plugin.json file). Exit status: 0 no errors,\n" +
				"1 errors found, 2 bad usage (unknown flag, a DIR without any plugin).\n" +
				"Rules and their codes: docs/rules.md.",
			flags: []flagDef{
				{name: "format", value: "text|json|sarif", help: "text: file:line:col: severity: message [code] (the\n" +
					"default; 1-based line and UTF-16 column), with a line\n" +
					"\"fix: <title>\" under a diagnostic that has a fix;\n" +
					"json: [{plugin, file, range: {start: {line, character},\n" +
					"end}, severity (1 error, 2 warning, 3 info, 4 hint),\n" +
					"code, message}], LSP-shaped: 0-based lines, UTF-16\n" +
					"characters, file relative to the plugin directory;\n" +
					"sarif: SARIF 2.1.0 for code-scanning services"},
				{name: "builtins", value: "FILE", help: "a JSON array of tool names that extends the built-in\ncatalogue"},
				{name: "no-explore", help: "read the code only: do not also run each function tool in\n" +
					"the sandbox with generated inputs and stubbed answers\n" +
					"(exploration: no network, no secrets; docs/rules.md)"},
				{name: "require-snapshot", help: "a plugin without plugin.lock.json (plugin-lsp pin) is an\n" +
					"error, as is a reach wider than the snapshot (for CI);\n" +
					"every plugin.json under DIR is checked, including those\n" +
					"in hidden directories, node_modules and nested plugins\n" +
					"(without it those are skipped)"},
				{name: "fix", help: "apply every preferred, safe fix of an error or warning\n" +
					"(one that adds or renames: never one that removes a\n" +
					"capability or code), re-checking after each and keeping\n" +
					"it only when it brings no new error; print what changed,\n" +
					"then check the fixed plugins"},
				{name: "diff", rel: relOr, help: "print the patch --fix would apply (unified diff, paths\nas given on the command line) and change nothing"},
			},
		},
		{
			name:    "review",
			run:     withoutStdin(cmdReview),
			args:    "DIR",
			summary: "print the install review card",
			about: "Prints the install review card of the plugin in DIR: plugin, version,\n" +
				"source-tree hash, each function tool with its reach (host methods, fetch\n" +
				"domains, credentials) and each native tool in the full-trust lane.\n" +
				"Exit status: 0 card printed, 1 the plugin has errors (the card is still\n" +
				"printed when it can be) or its tree cannot be hashed (a symlink), 2 bad usage.",
			flags: []flagDef{
				{name: "format", value: "text|json", help: "text (default) or json (the card as one object)"},
				{name: "builtins", value: "FILE", help: "a JSON array of tool names that extends the built-in\ncatalogue"},
			},
		},
		{
			name:    "run",
			run:     withoutStdin(cmdRun),
			args:    "DIR TOOL|PAGE",
			summary: "run a function tool (or a page) in the sandbox",
			about: "Runs the function tool TOOL of the plugin in DIR in the real sandbox\n" +
				"(QuickJS-WASM, zero ambient authority, the fetch broker) and prints the run\n" +
				"record as one JSON object: {claim, ok, result, error, logs, fetches,\n" +
				"durationMs, usage, secrets}; \"secrets\" says where each credential's dev\n" +
				"secret came from (fixtures, env PLUGIN_SECRET_<PLUGIN>__<name> bound to\n" +
				"this plugin, or refused and how to bind it), never its value. Exit status:\n" +
				"0 the tool returned, 1 it threw or was stopped, 2 bad usage (unknown flag\n" +
				"or tool, input not JSON, no plugin).\n" +
				"TOOL may be a page path instead (code/helper.ts): a page no tool binds\n" +
				"runs with the minimal grant (no host method, no network).",
			flags: []flagDef{
				{name: "fixtures", value: "F", help: "fixtures file (default DIR/fixtures.json)"},
				{name: "input", value: "JSON|@FILE|-", help: "the tool's argument; @FILE reads a file, - reads stdin\n" +
					"(default: inputJsonSchema.examples[0], else fixtures.json\n" +
					"\"inputs\"[TOOL], else the required properties, empty).\n" +
					"It is validated against inputJsonSchema before the\n" +
					"sandbox starts: a mismatch is a record with ok false and\n" +
					"error.name \"InputError\", one violation per JSON pointer"},
				{name: "timeout", value: "D", help: "wall deadline, a Go duration (default 30s)"},
				{name: "providers", value: "fake|real", help: "fake (default: fixtures; an unmatched fetch throws) or\nreal (the network, through the same broker)"},
				{name: "record", rel: relWith, help: "with --providers real: append each answered response to\n" +
					"the fixtures file as a fixture (secrets replaced, the\n" +
					"request's credential headers never written; see\n" +
					"docs/fixtures.md)"},
				{name: "trust-native", help: "run a native tool (nativeTools) in a Node.js >= 20 child\n" +
					"process with full authority on this machine, through the\n" +
					"plugin-lsp harness (docs/authoring.md, Native tools); the\n" +
					"record adds lane, approval and connections"},
				{name: "node", value: "PATH", help: "the node executable for --trust-native (default: node on\nPATH)"},
			},
		},
		{
			name:    "pin",
			run:     withoutStdin(cmdPin),
			args:    "DIR",
			summary: "write the capability snapshot DIR/plugin.lock.json",
			about: "Writes DIR/plugin.lock.json, the capability snapshot of the plugin in DIR:\n" +
				"its source-tree hash, name and version, per function tool its host methods,\n" +
				"fetch domains with caps and credentials (names and scopes, never values),\n" +
				"per native tool its module, module hash, requires and needsApproval,\n" +
				"and per tool a hash of the text the agent reads (description and input\n" +
				"schema; docs/snapshot.md). check and the language server then report\n" +
				"drift: snapshot-widened, snapshot-narrowed, snapshot-stale,\n" +
				"snapshot-text-changed. Review the card\n" +
				"(plugin-lsp review DIR) before you pin. Prints what changed since the\n" +
				"previous snapshot. Exit status: 0 written, 1 the tree cannot be hashed or\n" +
				"the file not written, 2 bad usage.",
		},
		{
			name:    "test",
			run:     withoutStdin(cmdTest),
			args:    "DIR...",
			summary: "run the tool tests (tests/*.json); exit 1 on a failure",
			about: "Runs the tool tests (tests/*.json, see docs/testing.md) of every plugin at\n" +
				"or below each DIR, each case in a fresh sandbox with fake providers\n" +
				"(fixtures.json plus the case's own fixtures), in parallel. Exit status: 0\n" +
				"every case passed, 1 a case failed or a test file is broken, 2 bad usage.",
			flags: []flagDef{
				{name: "update", alias: "u", help: "write the snapshots of \"snapshot\": true cases (new or\nchanged) and drop stored snapshots no case uses"},
				{name: "format", value: "text|json|tap|junit", help: "text (default), json, tap (TAP 14) or junit (XML)"},
				{name: "run", value: "PATTERN", help: "run only the cases whose \"<tool>/<name>\" matches the\nregular expression"},
				{name: "timeout", value: "D", help: "deadline of a case without timeoutMs (default 10s)"},
				{name: "parallel", value: "N", help: "cases run at once (default: the number of CPUs)"},
				{name: "trust-native", help: "also run the cases of native tools, in Node.js >= 20 with\n" +
					"full authority on this machine (fake providers: every\n" +
					"connection refused and recorded); without it they are\n" +
					"reported as skipped"},
				{name: "node", value: "PATH", help: "the node executable for --trust-native (default: node on\nPATH)"},
			},
		},
		{
			name:    "init",
			run:     withoutStdin(cmdInit),
			args:    "DIR",
			summary: "a new plugin (or tool) that checks, runs and has a test",
			about: "Creates a plugin in DIR (when DIR has no plugin.json) with one function\n" +
				"tool that checks clean, runs against its fixtures, is typed and has a\n" +
				"passing test: plugin.json, code/<tool>.ts, fixtures.json, tests/<tool>.json,\n" +
				".plugin/types.d.ts and tsconfig.json. In a plugin that exists, --tool NAME\n" +
				"adds a tool of its own the same way (manifest entry with a placeholder\n" +
				"description and a minimal input schema, page, fixture, test).\n" +
				"--native NAME adds a native tool instead (the full-trust lane): its module\n" +
				"native/<name>.js (// @ts-check against .plugin/native.d.ts), its nativeTools\n" +
				"entry and \"sdk\": 1, native/tsconfig.json, tests/<name>.json and the types.\n" +
				"Existing files are never overwritten; running init twice changes nothing.",
			flags: []flagDef{
				{name: "tool", value: "NAME", help: "the tool to create (default \"greet\", a greeter); an\nidentifier: letters, digits and _, not starting with a digit"},
				{name: "native", value: "NAME", rel: relOr, help: "a native tool to create instead, named like \"chat.send\"\n(dot-separated parts; not fn.*, not a built-in's name)"},
			},
		},
		{
			name:    "types",
			run:     withoutStdin(cmdTypes),
			args:    "DIR...",
			summary: "write .plugin/types.d.ts (and tsconfig.json) for the pages",
			about: "Writes DIR/.plugin/types.d.ts for every plugin at or below each DIR: the\n" +
				"host API the plugin is granted (http.fetch, collections.*), console, the\n" +
				"timers and web globals of the sandbox, and Input<\"toolName\"> from each\n" +
				"tool's inputJsonSchema. Writes DIR/tsconfig.json too when there is none,\n" +
				"so that editors and tsc --noEmit type-check the pages against it. A plugin\n" +
				"with native tools also gets DIR/.plugin/native.d.ts: each native tool's input\n" +
				"(from its inputJsonSchema in the module) and its ctx, narrowed by its requires.",
			flags: []flagDef{
				{name: "check", help: "write nothing; exit 1 when a types.d.ts is missing or stale"},
				{name: "stdout", rel: relOr, help: "write nothing; print the types.d.ts of the one plugin DIR holds (the VS Code extension's TypeScript server plugin reads it)"},
			},
		},
		{
			name:    "version",
			run:     cmdVersion,
			summary: "print the version (also --version)",
			about:   "Prints \"plugin-lsp VERSION\".",
		},
		{
			name:    "help",
			run:     withoutStdin(cmdHelp),
			args:    "[COMMAND]",
			summary: "print this help, or a command's (also --help; COMMAND -h)",
			about:   "Prints the list of commands, or with COMMAND that command's flags.",
		},
	}
}

// lookup returns the command named name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// cmdSpec is lookup for a name the table has (the commands' own files).
func cmdSpec(name string) *command {
	c := lookup(name)
	if c == nil {
		panic("plugin-lsp: no command " + name + " in the table")
	}
	return c
}

// synopsis is "check [--format text|json|sarif] ... DIR...".
func (c *command) synopsis() string {
	parts := []string{c.name}
	for i := 0; i < len(c.flags); i++ {
		group := c.flags[i].spelling()
		for i+1 < len(c.flags) && c.flags[i+1].rel != relNone {
			i++
			if c.flags[i].rel == relOr {
				group += " | " + c.flags[i].spelling()
			} else {
				group += " [" + c.flags[i].spelling() + "]"
			}
		}
		parts = append(parts, "["+group+"]")
	}
	if c.args != "" {
		parts = append(parts, c.args)
	}
	return strings.Join(parts, " ")
}

// spelling is "--format text|json" or "--fix".
func (f flagDef) spelling() string {
	if f.value == "" {
		return "--" + f.name
	}
	return "--" + f.name + " " + f.value
}

// usage is the text of `help CMD` and `CMD -h`.
func (c *command) usage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: plugin-lsp %s\n", c.synopsis())
	if c.about != "" {
		fmt.Fprintf(&b, "\n%s\n", c.about)
	}
	if len(c.flags) > 0 {
		b.WriteString("\n")
	}
	const col = 24
	for _, f := range c.flags {
		label := "  " + f.spelling()
		if f.alias != "" {
			label = "  -" + f.alias + ", " + f.spelling()
		}
		lines := wrap(strings.ReplaceAll(f.help, "\n", " "), 79-col)
		if len(label)+2 > col {
			b.WriteString(label + "\n")
		} else {
			b.WriteString(label + strings.Repeat(" ", col-len(label)) + lines[0] + "\n")
			lines = lines[1:]
		}
		for _, l := range lines {
			b.WriteString(strings.Repeat(" ", col) + l + "\n")
		}
	}
	return b.String()
}

// mainUsage is the text of `plugin-lsp help`.
func mainUsage() string {
	var b strings.Builder
	b.WriteString("usage: plugin-lsp <command> [arguments]\n\n" +
		"plugin-lsp checks, reviews and runs agent plugins; editors start it as a\n" +
		"language server. The first run of a new version compiles QuickJS once into\n" +
		"a cache (a few seconds); later runs start in milliseconds.\n\ncommands:\n")
	const col = 29
	for _, c := range commands {
		s := "  " + c.synopsis()
		if len(s)+2 > col {
			b.WriteString(s + "\n" + strings.Repeat(" ", col))
		} else {
			b.WriteString(s + strings.Repeat(" ", col-len(s)))
		}
		b.WriteString(c.summary + "\n")
	}
	b.WriteString("\nRun `plugin-lsp help COMMAND` for a command's flags.\n" +
		"Docs: https://github.com/plugin-lsp/plugin-lsp/tree/main/docs\n")
	return b.String()
}

// parse scans args with the command's flags (scanArgs' rules: flags
// before, between and after the positional arguments; "--" ends them).
// set receives each flag by its name (never its alias) with its value.
func (c *command) parse(args []string, set func(name, val string) error) ([]string, error) {
	var bools, valued []string
	canonical := map[string]string{}
	for _, f := range c.flags {
		list := &bools
		if f.value != "" {
			list = &valued
		}
		*list = append(*list, f.name)
		canonical[f.name] = f.name
		if f.alias != "" {
			*list = append(*list, f.alias)
			canonical[f.alias] = f.name
		}
	}
	return scanArgs(args, bools, valued, func(name, val string) error {
		return set(canonical[name], val)
	})
}

// noHandler is what a command's set function returns for a flag of the
// table it does not handle (a test runs every flag through its parser).
func noHandler(cmd, name string) error {
	return fmt.Errorf("internal error: %s has no handler for --%s", cmd, name)
}

// flagOf returns the command's flag named name (it must exist).
func flagOf(c *command, name string) flagDef {
	for _, f := range c.flags {
		if f.name == name {
			return f
		}
	}
	panic("plugin-lsp: " + c.name + " has no flag --" + name)
}

// wrap breaks s into lines of at most width bytes at spaces (a longer
// word gets a line of its own).
func wrap(s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	return append(lines, cur)
}

// withoutStdin adapts a command that reads no standard input.
func withoutStdin(f func(args []string, stdout, stderr io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return f(args, stdout, stderr) }
}
