package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/protocol"
)

// Settings are the client settings of section "pluginLsp" (docs/extension.md,
// "Settings", generated from extension/package.json).
type Settings struct {
	// Builtins are extra first-party tool names (added to the catalogue).
	Builtins []string
	// Providers is "fake" (fixtures, the default) or "real" (network).
	Providers string
	// Timeout is the wall deadline of a tool run.
	Timeout time.Duration
	// DebounceMs overrides Options.Debounce when set.
	DebounceMs *int
}

func defaultSettings() Settings {
	return Settings{Providers: "fake", Timeout: 30 * time.Second}
}

// settingsJSON is the wire shape of the settings.
type settingsJSON struct {
	Builtins   []string `json:"builtins"`
	Providers  string   `json:"providers"`
	Timeout    any      `json:"timeout"` // "30s" or a number of milliseconds
	DebounceMs *float64 `json:"debounceMs"`
}

// parseSettings reads a "pluginLsp" settings object. raw may also be an
// object holding it under "pluginLsp" (didChangeConfiguration sends the
// whole tree). Invalid values are reported and left at their defaults.
func parseSettings(raw []byte) (Settings, error) {
	st := defaultSettings()
	if len(raw) == 0 || string(raw) == "null" {
		return st, nil
	}
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wrapper); err != nil {
		return st, fmt.Errorf("settings must be an object: %v", err)
	}
	if inner, ok := wrapper["pluginLsp"]; ok {
		raw = inner
		if string(raw) == "null" {
			return st, nil
		}
	}
	var js settingsJSON
	if err := json.Unmarshal(raw, &js); err != nil {
		return st, fmt.Errorf("pluginLsp settings: %v", err)
	}
	var errs []string
	st.Builtins = js.Builtins
	switch js.Providers {
	case "", "fake":
	case "real":
		st.Providers = "real"
	default:
		errs = append(errs, fmt.Sprintf("pluginLsp.providers must be \"fake\" or \"real\", not %q", js.Providers))
	}
	switch t := js.Timeout.(type) {
	case nil:
	case string:
		if t != "" {
			d, err := time.ParseDuration(t)
			if err != nil || d <= 0 {
				errs = append(errs, fmt.Sprintf("pluginLsp.timeout %q is not a duration like \"30s\"", t))
			} else {
				st.Timeout = d
			}
		}
	case float64:
		if t > 0 {
			st.Timeout = time.Duration(t) * time.Millisecond
		}
	default:
		errs = append(errs, "pluginLsp.timeout must be a duration string like \"30s\"")
	}
	if js.DebounceMs != nil {
		n := int(*js.DebounceMs)
		if n < 0 {
			n = 0
		}
		st.DebounceMs = &n
	}
	if len(errs) > 0 {
		return st, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return st, nil
}

// fetchSettings asks the client for the "pluginLsp" section and applies
// it (which re-checks every plugin), and reports whether it did. It must
// not run on the read loop (it waits for the client).
func (s *Server) fetchSettings(ctx context.Context) bool {
	s.mu.Lock()
	can := s.caps.configuration
	s.mu.Unlock()
	if !can {
		return false
	}
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{
		Items: []protocol.ConfigurationItem{{Section: new("pluginLsp")}},
	})
	if err != nil || len(res) == 0 {
		return false
	}
	s.applySettings(res[0])
	return true
}

// applySettings parses and installs settings, then re-checks everything.
func (s *Server) applySettings(raw []byte) {
	st, err := parseSettings(raw)
	if err != nil {
		s.logClient(protocol.MessageTypeWarning, "plugin-lsp: "+err.Error())
	}
	s.mu.Lock()
	s.config = st
	s.touchAll()
	s.mu.Unlock()
}

// DidChangeConfiguration re-reads the settings: from the notification when
// it carries them, else by asking the client.
func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	if len(params.Settings) > 0 && string(params.Settings) != "null" {
		var probe map[string]json.RawMessage
		if json.Unmarshal(params.Settings, &probe) == nil {
			if _, ok := probe["pluginLsp"]; ok {
				s.applySettings(params.Settings)
				return nil
			}
		}
	}
	s.safeGo("configuration", func() { s.fetchSettings(s.ctx) })
	return nil
}
