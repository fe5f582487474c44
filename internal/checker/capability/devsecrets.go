package capability

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// Dev secrets: the values a credential gets when a plugin runs on a
// developer's machine or in CI (plugin-lsp run, test, the editor's Run).
// This file is the one resolver: the broker (through the runner, tool tests
// and the language server's runs), the hover and the rules that say where a
// secret comes from all call it.
//
// A dev secret goes to a plugin only when it is bound to that plugin:
//
//   - fixtures.json "secrets" of the plugin itself (the fake provider's
//     file: it sits in the plugin, so it is bound by where it is), or
//   - the environment variable PLUGIN_SECRET_<PLUGIN>__<name>, where
//     <PLUGIN> is the plugin's "name" upper-cased with '-' written '_',
//     then two '_', then the credential's name exactly as the manifest
//     writes it (no case folding).
//
// An unscoped PLUGIN_SECRET_<NAME> (the old form) binds nothing and is
// refused, with a message that says which variable to set.
//
// The mapping (plugin, name) → variable is injective over the plugins it
// accepts: a plugin name is [a-z0-9][a-z0-9-]*, so upper-casing and '-'→'_'
// lose nothing (a plugin name has no '_' and no upper-case letter); a name
// with "--" or a trailing '-' would put "__" inside <PLUGIN> or right
// before the separator, so such plugins get no environment secrets (they
// are refused, naming the reason). Without them <PLUGIN> holds no "__" and
// does not end in '_', so the first "__" after the prefix is the separator
// and both halves read back. TestDevSecretEnvInjective checks it.

// Sources of a dev secret, as the run record's "secrets" audit says them.
const (
	SecretFromFixtures = "fixtures" // fixtures.json "secrets" (or a test case's)
	SecretFromEnv      = "env"      // PLUGIN_SECRET_<PLUGIN>__<name>
	SecretRefused      = "refused"  // no secret bound to this plugin
)

// DevSecretPrefix starts every dev secret variable.
const DevSecretPrefix = "PLUGIN_SECRET_"

var (
	pluginNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	secretNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// PluginName is the plugin's "name" in plugin.json, to which environment
// dev secrets are bound ("" when it has none or it is not a string).
func PluginName(m *checker.Manifest) string {
	if m == nil {
		return ""
	}
	s, _ := checker.Str(m.Name)
	return s
}

// DevSecretEnv is the environment variable that binds the dev secret name
// to plugin, or why there is none (a plugin name that is not valid or
// would be ambiguous, a secret name that is not one).
func DevSecretEnv(plugin, name string) (string, error) {
	switch {
	case !pluginNameRE.MatchString(plugin):
		if plugin == "" {
			return "", fmt.Errorf("the plugin has no valid \"name\" in plugin.json, and environment secrets are bound to it")
		}
		return "", fmt.Errorf("the plugin's name %q is not a plugin name (lower-case letters, digits and '-'), and environment secrets are bound to it", plugin)
	case strings.Contains(plugin, "--") || strings.HasSuffix(plugin, "-"):
		return "", fmt.Errorf("the plugin's name %q holds \"--\" or ends with '-', which makes PLUGIN_SECRET_ variables ambiguous; rename the plugin to bind environment secrets", plugin)
	case !secretNameRE.MatchString(name):
		return "", fmt.Errorf("%q is not a secret name (letters, digits and '_')", name)
	}
	return DevSecretPrefix + strings.ReplaceAll(strings.ToUpper(plugin), "-", "_") + "__" + name, nil
}

// unboundEnvName is the old, unscoped variable (PLUGIN_SECRET_ + the name
// upper-cased, other characters as '_'): it binds nothing; the resolver
// reads it only to say that it is set and how to bind it.
func unboundEnvName(name string) string {
	var sb strings.Builder
	sb.WriteString(DevSecretPrefix)
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z':
			sb.WriteRune(r - 'a' + 'A')
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// SecretResolution is how one credential's dev secret was found (or not):
// the run record audits it by name and source, never with the value.
type SecretResolution struct {
	Name   string `json:"name"`
	Source string `json:"source"` // SecretFromFixtures, SecretFromEnv, SecretRefused
	// Env is the variable read (source "env") or the one that would bind
	// the secret to this plugin (source "refused").
	Env string `json:"env,omitempty"`
	// Reason (source "refused") says why and how to bind the secret.
	Reason string `json:"reason,omitempty"`
	value  string
}

// Value is the secret (empty unless found).
func (r SecretResolution) Value() string { return r.value }

// String names the resolution without its value (fmt never prints the
// secret): "openlibrary_key: env PLUGIN_SECRET_BOOKS__openlibrary_key".
func (r SecretResolution) String() string {
	s := r.Name + ": " + r.Source
	if r.Env != "" {
		s += " " + r.Env
	}
	return s
}

// GoString is String: %#v does not print the value either.
func (r SecretResolution) GoString() string { return r.String() }

// Found reports whether a secret was bound and non-empty.
func (r SecretResolution) Found() bool { return r.Source != SecretRefused && r.value != "" }

// DevSecrets resolves the dev secrets of one plugin.
type DevSecrets struct {
	// Plugin is the plugin's "name" in plugin.json: environment secrets
	// are bound to it.
	Plugin string
	// Fixtures are the "secrets" of the plugin's fixtures.json (merged
	// with a test case's), by exact name.
	Fixtures map[string]string
	// Env reads the environment (nil: no environment).
	Env func(string) string
}

// Resolve finds the dev secret of the credential name: fixtures first,
// then the variable that binds it to this plugin. Names are compared
// exactly; empty values count as missing.
func (d DevSecrets) Resolve(name string) SecretResolution {
	r := SecretResolution{Name: name}
	if v := d.Fixtures[name]; v != "" {
		r.Source, r.value = SecretFromFixtures, v
		return r
	}
	env, err := DevSecretEnv(d.Plugin, name)
	if err == nil && d.Env != nil {
		if v := d.Env(env); v != "" {
			r.Source, r.Env, r.value = SecretFromEnv, env, v
			return r
		}
	}
	r.Source, r.Env = SecretRefused, env
	r.Reason = d.refusal(name, env, err)
	return r
}

// refusal says why name has no secret for this plugin and how to bind one.
func (d DevSecrets) refusal(name, env string, bindErr error) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "credential %q has no dev secret bound to plugin %q", name, d.Plugin)
	if d.Env != nil {
		var set []string
		for _, v := range []string{unboundEnvName(name), strings.ToUpper(env)} {
			if v != "" && v != env && v != DevSecretPrefix && d.Env(v) != "" && !slices.Contains(set, v) {
				set = append(set, v)
			}
		}
		switch len(set) {
		case 1:
			fmt.Fprintf(&sb, ": %s is set but does not bind it", set[0])
		case 2:
			fmt.Fprintf(&sb, ": %s and %s are set but do not bind it", set[0], set[1])
		}
		if len(set) > 0 {
			sb.WriteString(" (a dev secret goes only to the plugin its variable names, and names are compared exactly)")
		}
	}
	if bindErr != nil {
		fmt.Fprintf(&sb, "; %v; add %q to \"secrets\" in fixtures.json", bindErr, name)
		return sb.String()
	}
	fmt.Fprintf(&sb, "; bind it with %s=… (the plugin's name upper-cased with '-' as '_', then \"__\", then the secret's name exactly as written), or add %q to \"secrets\" in fixtures.json", env, name)
	return sb.String()
}
