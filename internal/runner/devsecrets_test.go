package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// TestDevSecretGrant runs the example's lookupBook as two plugins, alpha
// and beta, against one environment that binds openlibrary_key to alpha
// and also holds the old unscoped variable: alpha's request carries its
// secret; beta's is refused whatever the case of the credential's name in
// its manifest, with a message that says how to bind it; the record audits
// each resolution by name and source and holds no value.
func TestDevSecretGrant(t *testing.T) {
	const alphaKey, unscoped = "alpha-dev-key-4c1d", "unscoped-key-9e2f"
	env := map[string]string{
		"PLUGIN_SECRET_ALPHA__openlibrary_key": alphaKey,
		"PLUGIN_SECRET_OPENLIBRARY_KEY":        unscoped,
	}
	r, err := New(Config{CacheDir: cacheDir(), Spare: -1, Env: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "example", "books"))
	fx, err := broker.LoadFixtures(filepath.Join(dir, checker.FixturesName))
	if err != nil {
		t.Fatal(err)
	}
	fx.Secrets = nil // only the environment: the fixtures' secrets are per plugin already
	manifest := string(books(t).ManifestFile.Text)
	run := func(plugin, cred string) *record.Record {
		t.Helper()
		m := strings.Replace(manifest, `"name": "books"`, `"name": "`+plugin+`"`, 1)
		m = strings.ReplaceAll(m, `"openlibrary_key"`, `"`+cred+`"`)
		p, err := checker.Load(&checker.Overlay{Files: map[string][]byte{filepath.Join(dir, checker.ManifestName): []byte(m)}}, dir)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := r.Run(context.Background(), Request{Plugin: p, Tool: "lookupBook", Input: json.RawMessage(`{"isbn":"9780261103344"}`), Fixtures: fx, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		assertNoSecret(t, rec, alphaKey, unscoped)
		return rec
	}

	rec := run("alpha", "openlibrary_key")
	if !rec.OK || len(rec.Fetches) != 1 || len(rec.Fetches[0].Credentials) != 1 {
		t.Fatalf("alpha: %s %+v %+v", rec.Result, rec.Error, rec.Fetches)
	}
	want := []capability.SecretResolution{{Name: "openlibrary_key", Source: capability.SecretFromEnv, Env: "PLUGIN_SECRET_ALPHA__openlibrary_key"}}
	if len(rec.Secrets) != 1 || rec.Secrets[0] != want[0] {
		t.Errorf("alpha: secrets audit %+v, want %+v", rec.Secrets, want)
	}

	for _, cred := range []string{"openlibrary_key", "OPENLIBRARY_KEY", "OpenLibrary_Key"} {
		rec := run("beta", cred)
		if rec.OK || len(rec.Fetches) != 1 || rec.Fetches[0].Refused != broker.ReasonNoSecret {
			t.Fatalf("beta %s: ok %v, fetches %+v", cred, rec.OK, rec.Fetches)
		}
		bind := "PLUGIN_SECRET_BETA__" + cred
		if msg := rec.Fetches[0].Error; !strings.Contains(msg, "bind it with "+bind+"=…") || !strings.Contains(msg, "PLUGIN_SECRET_OPENLIBRARY_KEY is set but does not bind it") {
			t.Errorf("beta %s: the refusal does not say how to bind it: %s", cred, msg)
		}
		if len(rec.Secrets) != 1 || rec.Secrets[0].Name != cred || rec.Secrets[0].Source != capability.SecretRefused || rec.Secrets[0].Env != bind || rec.Secrets[0].Reason == "" {
			t.Errorf("beta %s: secrets audit %+v", cred, rec.Secrets)
		}
		b, _ := json.Marshal(rec)
		if !strings.Contains(string(b), `"secrets":[{"name":"`+cred+`","source":"refused","env":"`+bind+`"`) {
			t.Errorf("beta %s: the record's JSON has no audit of the resolution: %s", cred, b)
		}
	}
}

// TestSecretAuditCapped: a manifest of thousands of credentials keeps the
// record bounded: the first MaxSecretEntries resolutions and the count of
// the others, each string cut.
func TestSecretAuditCapped(t *testing.T) {
	rec := &record.Record{Result: json.RawMessage("null")}
	for i := 0; i < 1000; i++ {
		rec.Secrets = append(rec.Secrets, capability.SecretResolution{Name: fmt.Sprintf("k%d", i), Source: capability.SecretRefused,
			Env: "PLUGIN_SECRET_P__" + strings.Repeat("n", 10_000), Reason: strings.Repeat("why ", 10_000)})
	}
	CapRecord(rec)
	if len(rec.Secrets) != MaxSecretEntries || rec.SecretsOmitted != 1000-MaxSecretEntries || rec.Secrets[0].Name != "k0" {
		t.Fatalf("kept %d, omitted %d", len(rec.Secrets), rec.SecretsOmitted)
	}
	for _, s := range rec.Secrets {
		if len(s.Reason) > MaxAuditFieldBytes+32 || len(s.Env) > MaxErrorNameBytes+32 {
			t.Fatalf("%s: reason %d bytes, env %d bytes", s.Name, len(s.Reason), len(s.Env))
		}
	}
	if b, _ := json.Marshal(rec); len(b) > MaxRecordBytes {
		t.Errorf("record of %d bytes", len(b))
	}
}
