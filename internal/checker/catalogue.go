package checker

import (
	_ "embed"
	"encoding/json"
	"sort"
	"strings"
)

//go:embed builtins.json
var defaultBuiltinsJSON []byte

// Catalogue is the set of first-party built-in tool names that plugin
// tools can never shadow: the embedded default plus workspace additions.
type Catalogue struct {
	names map[string]bool
}

// ReservedPrefix is the namespace of function tools; no native name may
// start with it.
const ReservedPrefix = "fn."

// DefaultCatalogue returns the embedded catalogue (internal/checker/builtins.json).
func DefaultCatalogue() *Catalogue {
	var names []string
	if err := json.Unmarshal(defaultBuiltinsJSON, &names); err != nil {
		panic("analysis: embedded builtins.json is invalid: " + err.Error())
	}
	return NewCatalogue(names)
}

// NewCatalogue returns a catalogue of exactly names.
func NewCatalogue(names []string) *Catalogue {
	c := &Catalogue{names: make(map[string]bool, len(names))}
	for _, n := range names {
		c.names[n] = true
	}
	return c
}

// Extend returns a copy of c with names added.
func (c *Catalogue) Extend(names ...string) *Catalogue {
	out := &Catalogue{names: make(map[string]bool, len(c.names)+len(names))}
	for n := range c.names {
		out.names[n] = true
	}
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			out.names[n] = true
		}
	}
	return out
}

// Has reports whether name is a built-in tool.
func (c *Catalogue) Has(name string) bool { return c.names[name] }

// Names returns the sorted names.
func (c *Catalogue) Names() []string {
	out := make([]string, 0, len(c.names))
	for n := range c.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Config is what a check depends on besides the plugin's own files.
type Config struct {
	Builtins *Catalogue
	// RequireSnapshot makes a missing capability snapshot
	// (plugin.lock.json) an error (check --require-snapshot, for CI).
	RequireSnapshot bool
	// Runs are the last runs of the function tools, by tool name (see
	// ToolRun); nil when nothing ran.
	Runs map[string]ToolRun
	// Explored is what exploration saw, by tool name (see Exploration);
	// nil when nothing was explored.
	Explored map[string]*Exploration
	// Explore, when set and Explored is nil, explores each plugin Run
	// checks (plugin-lsp check wires the runner's explorer here; the
	// checker only calls it).
	Explore func(*Plugin) map[string]*Exploration
}

// DefaultConfig uses the embedded catalogue.
func DefaultConfig() *Config { return &Config{Builtins: DefaultCatalogue()} }
