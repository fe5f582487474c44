package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

const capsSecret = "sk-caps-secret-42"

// Every cap of the run record holds, whatever the page throws, logs or
// returns, and the whole record stays under MaxRecordBytes.
func TestRecordCaps(t *testing.T) {
	pages := map[string]string{
		"thrown_string":  `export default () => { throw "s".repeat(2_000_000); };`,
		"error_message":  `export default () => { throw new Error("m".repeat(1_000_000)); };`,
		"error_name":     `export default () => { const e = new Error("x"); e.name = "N".repeat(1_000_000); throw e; };`,
		"error_stack":    `export default () => { const e = new Error("x"); e.stack = "at f (page.js:1:1)\n".repeat(300_000); throw e; };`,
		"thrown_object":  `export default () => { throw { message: "o".repeat(1_000_000), name: "Custom" }; };`,
		"rejected":       `export default async () => { await null; return Promise.reject("r".repeat(1_500_000)); };`,
		"empty_logs":     `export default () => { for (let i = 0; i < 200_000; i++) console.log(); return "done"; };`,
		"tiny_logs":      `export default () => { for (let i = 0; i < 200_000; i++) console.warn(i % 10); return "done"; };`,
		"long_log":       `export default () => { console.log("l".repeat(5_000_000)); return "done"; };`,
		"redacted_grows": fmt.Sprintf(`export default () => %q.repeat(%d);`, capsSecret+" ", (4<<20)/(len(capsSecret)+1)-8),
	}
	files := map[string]string{"fixtures.json": `{"secrets":{"a_very_long_credential_name_for_the_caps_test":"` + capsSecret + `"}}`}
	var tools []string
	for name, src := range pages {
		files["code/"+name+".ts"] = src
		tools = append(tools, fmt.Sprintf(`{"name":%q,"page":"code/%s"}`, name, name))
	}
	files["plugin.json"] = `{"name":"caps","version":"1.0.0","tools":[` + strings.Join(tools, ",") + `],
	  "capabilities":{"host":["http.fetch"],"fetch":["api.example.com"],
	  "credentials":[{"name":"a_very_long_credential_name_for_the_caps_test","into":{"header":"Authorization"},"domains":["api.example.com"]}]}}`
	p := writePlugin(t, files)
	for name := range pages {
		t.Run(name, func(t *testing.T) {
			// The deadline only guards against a hang: 5 MB strings took
			// over runTool's 10 s beside a language-server soak.
			rec, err := sharedRunner(t).Run(context.Background(), Request{Plugin: p, Tool: name, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(rec)
			if len(b) > MaxRecordBytes {
				t.Errorf("record of %d bytes, over the %d-byte ceiling", len(b), MaxRecordBytes)
			}
			assertNoSecret(t, rec, capsSecret)
			if e := rec.Error; e != nil {
				if len(e.Name) > MaxErrorNameBytes+32 || len(e.Message) > MaxErrorMessageBytes+32 || len(e.Stack) > MaxErrorStackBytes+32 {
					t.Errorf("error over its caps: name %d, message %d, stack %d bytes", len(e.Name), len(e.Message), len(e.Stack))
				}
			}
			n, bytes := len(rec.Logs), 0
			for _, l := range rec.Logs {
				bytes += len(l.Message)
			}
			if n > sandbox.MaxLogEntries+1 || bytes > sandbox.DefaultLogCapBytes+200 || rec.Usage.LogBytes > sandbox.DefaultLogCapBytes {
				t.Errorf("logs: %d entries, %d bytes, usage %d", n, bytes, rec.Usage.LogBytes)
			}
			switch name {
			case "thrown_string", "error_message", "thrown_object", "rejected":
				if !strings.Contains(rec.Error.Message, "bytes)") {
					t.Errorf("message not marked as cut: %.80q…", rec.Error.Message)
				}
			case "error_name":
				if !strings.HasSuffix(rec.Error.Name, "(1000000 bytes)") {
					t.Errorf("name %.80q", rec.Error.Name)
				}
			case "error_stack":
				if rec.Error == nil || !strings.Contains(rec.Error.Stack, "bytes)") {
					t.Errorf("stack not cut: %+v", rec.Error)
				}
			case "empty_logs", "tiny_logs", "long_log":
				if !rec.OK || !strings.Contains(rec.Logs[len(rec.Logs)-1].Message, "cap") {
					t.Errorf("ok=%v, last log %+v", rec.OK, rec.Logs[len(rec.Logs)-1])
				}
			case "redacted_grows":
				if rec.OK || rec.Error == nil || rec.Error.Name != "ResultTooLarge" {
					t.Errorf("ok=%v error %+v result %d bytes", rec.OK, rec.Error, len(rec.Result))
				}
			}
		})
	}
}

// Every method of the host-method catalogue (internal/checker/capability) has its
// implementation in hostMethods: a catalogue entry without one would be
// granted by check and the review card but missing in the sandbox.
func TestEveryCatalogueMethodIsImplemented(t *testing.T) {
	names := capability.HostMethodNames()
	if len(names) < 2 {
		t.Fatalf("the catalogue lists %v", names)
	}
	got := map[string]bool{}
	for _, m := range hostMethods(capability.Build(names, nil, nil), nil, newCollections(nil), nil) {
		if m.Fn == nil {
			continue
		}
		if strings.HasPrefix(m.Name, "collections.") { // one closure serves every op: call it
			args := []json.RawMessage{json.RawMessage(`"c"`), json.RawMessage(`"k"`), json.RawMessage(`1`)}
			if _, err := m.Fn(context.Background(), args); err != nil && strings.Contains(err.Error(), "not a host method") {
				t.Errorf("%s: %v", m.Name, err)
				continue
			}
		}
		got[m.Name] = true
	}
	for _, n := range names {
		if !got[n] {
			t.Errorf("catalogue method %s has no implementation in runner.hostMethods", n)
		}
	}
}
