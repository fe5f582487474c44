package capability

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDevSecretEnv(t *testing.T) {
	for _, c := range []struct{ plugin, name, want, err string }{
		{"books", "openlibrary_key", "PLUGIN_SECRET_BOOKS__openlibrary_key", ""},
		{"my-books", "Gh_Token", "PLUGIN_SECRET_MY_BOOKS__Gh_Token", ""},
		{"9lives", "_k", "PLUGIN_SECRET_9LIVES___k", ""},
		{"a", "K9", "PLUGIN_SECRET_A__K9", ""},
		{"", "k", "", "no valid \"name\""},
		{"Books", "k", "", "is not a plugin name"},
		{"my_books", "k", "", "is not a plugin name"},
		{"a--b", "k", "", "ambiguous"},
		{"a-", "k", "", "ambiguous"},
		{"books", "b-key.v2", "", "is not a secret name"},
		{"books", "", "", "is not a secret name"},
	} {
		got, err := DevSecretEnv(c.plugin, c.name)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("DevSecretEnv(%q, %q) = %q, %v; want %q", c.plugin, c.name, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || got != ""):
			t.Errorf("DevSecretEnv(%q, %q) = %q, %v; want an error with %q", c.plugin, c.name, got, err, c.err)
		}
	}
}

// TestDevSecretEnvInjective enumerates every plugin name up to 5 characters
// over {a, 1, -} and every secret name up to 4 characters over {a, A, _}:
// no two accepted pairs share a variable.
func TestDevSecretEnvInjective(t *testing.T) {
	words := func(alpha string, n int) []string {
		out := []string{""}
		level := []string{""}
		for i := 0; i < n; i++ {
			var next []string
			for _, w := range level {
				for _, r := range alpha {
					next = append(next, w+string(r))
				}
			}
			out = append(out, next...)
			level = next
		}
		return out
	}
	seen := map[string]string{}
	accepted := 0
	for _, p := range words("a1-", 5) {
		for _, n := range words("aA_", 4) {
			env, err := DevSecretEnv(p, n)
			if err != nil {
				continue
			}
			accepted++
			pair := p + " / " + n
			if prev, dup := seen[env]; dup {
				t.Fatalf("%s and %s both bind %s", prev, pair, env)
			}
			seen[env] = pair
		}
	}
	if accepted < 10000 {
		t.Fatalf("only %d pairs accepted: the enumeration is not testing much", accepted)
	}
}

func TestDevSecretsResolve(t *testing.T) {
	env := map[string]string{
		"PLUGIN_SECRET_ALPHA__Gh_Token": "alpha-token",
		"PLUGIN_SECRET_GH_TOKEN":        "unscoped-token",
		"PLUGIN_SECRET_BETA__GH_TOKEN":  "beta-upper",
		"PLUGIN_SECRET_BETA__empty":     "",
	}
	getenv := func(k string) string { return env[k] }
	alpha := DevSecrets{Plugin: "alpha", Env: getenv, Fixtures: map[string]string{"fx": "from-fixtures", "blank": ""}}
	beta := DevSecrets{Plugin: "beta", Env: getenv}
	for _, c := range []struct {
		d                    DevSecrets
		name, source, value  string
		env                  string
		reasonHas, reasonNot []string
	}{
		{d: alpha, name: "Gh_Token", source: SecretFromEnv, value: "alpha-token", env: "PLUGIN_SECRET_ALPHA__Gh_Token"},
		{d: alpha, name: "fx", source: SecretFromFixtures, value: "from-fixtures"},
		// The secret bound to alpha never goes to beta, whatever the case of its name.
		{d: beta, name: "Gh_Token", source: SecretRefused, env: "PLUGIN_SECRET_BETA__Gh_Token",
			reasonHas: []string{"PLUGIN_SECRET_GH_TOKEN and PLUGIN_SECRET_BETA__GH_TOKEN are set but do not bind it", "bind it with PLUGIN_SECRET_BETA__Gh_Token=…", "\"secrets\" in fixtures.json"}},
		{d: beta, name: "gh_token", source: SecretRefused, env: "PLUGIN_SECRET_BETA__gh_token", reasonHas: []string{"bind it with PLUGIN_SECRET_BETA__gh_token=…"}},
		{d: beta, name: "GH_TOKEN", source: SecretFromEnv, value: "beta-upper", env: "PLUGIN_SECRET_BETA__GH_TOKEN"},
		{d: alpha, name: "gh_token", source: SecretRefused, env: "PLUGIN_SECRET_ALPHA__gh_token", reasonHas: []string{"PLUGIN_SECRET_GH_TOKEN is set but does not bind it"}},
		{d: alpha, name: "FX", source: SecretRefused, env: "PLUGIN_SECRET_ALPHA__FX", reasonNot: []string{"is set"}},
		{d: alpha, name: "blank", source: SecretRefused, env: "PLUGIN_SECRET_ALPHA__blank"},
		{d: beta, name: "empty", source: SecretRefused, env: "PLUGIN_SECRET_BETA__empty"},
		{d: DevSecrets{Plugin: "a--b", Env: getenv}, name: "k", source: SecretRefused, reasonHas: []string{"ambiguous", "\"secrets\" in fixtures.json"}},
		{d: DevSecrets{Plugin: "alpha"}, name: "Gh_Token", source: SecretRefused, env: "PLUGIN_SECRET_ALPHA__Gh_Token"},
	} {
		r := c.d.Resolve(c.name)
		if r.Name != c.name || r.Source != c.source || r.Value() != c.value || r.Env != c.env || r.Found() != (c.value != "") {
			t.Errorf("%s: Resolve(%q) = %+v (value %q), want source %s, value %q, env %q", c.d.Plugin, c.name, r, r.Value(), c.source, c.value, c.env)
		}
		if (r.Source == SecretRefused) != (r.Reason != "") {
			t.Errorf("%s: Resolve(%q): reason %q with source %s", c.d.Plugin, c.name, r.Reason, r.Source)
		}
		for _, s := range c.reasonHas {
			if !strings.Contains(r.Reason, s) {
				t.Errorf("%s: Resolve(%q).Reason = %q, want it to say %q", c.d.Plugin, c.name, r.Reason, s)
			}
		}
		for _, s := range c.reasonNot {
			if strings.Contains(r.Reason, s) {
				t.Errorf("%s: Resolve(%q).Reason = %q, must not say %q", c.d.Plugin, c.name, r.Reason, s)
			}
		}
		b, _ := json.Marshal(r)
		printed := fmt.Sprintf("%s %v %+v %#v %s", b, r, r, r, r.Reason)
		for _, v := range append([]string{"from-fixtures"}, slices.Collect(maps.Values(env))...) {
			if v != "" && strings.Contains(printed, v) {
				t.Errorf("%s: the audit of %q holds a secret value: %s", c.d.Plugin, c.name, b)
			}
		}
	}
}

// TestDevSecretNamePatterns: the names the resolver accepts are exactly
// the schema's plugin and secret names (one definition, checked here).
func TestDevSecretNamePatterns(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "schema", "plugin.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Name struct{ Pattern string } `json:"name"`
		} `json:"properties"`
		Defs struct {
			Credential struct {
				Properties struct {
					Name struct{ Pattern string } `json:"name"`
				} `json:"properties"`
			} `json:"credential"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if got, want := pluginNameRE.String(), s.Properties.Name.Pattern; got != want {
		t.Errorf("plugin name pattern %q, the schema's %q", got, want)
	}
	if got, want := secretNameRE.String(), s.Defs.Credential.Properties.Name.Pattern; got != want {
		t.Errorf("secret name pattern %q, the schema's %q", got, want)
	}
}
