package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// plugin.nativeTool answers a native tool's description and
// inputJsonSchema from its module (the editor's text of it), for the run
// panel of an editor that reads plugin.json only; a function tool, an
// undeclared name and a missing tool are InvalidParams.
func TestNativeToolInfo(t *testing.T) {
	dir := copyExample(t)
	h := newHarness(t, Options{Runner: &fakeRunner{}})
	res := h.initialize(dir, richCaps())
	found := false
	for _, c := range res.Capabilities.ExecuteCommandProvider.Commands {
		found = found || c == CommandNativeTool
	}
	if !found {
		t.Fatalf("%s is not advertised: %v", CommandNativeTool, res.Capabilities.ExecuteCommandProvider.Commands)
	}
	module := filepath.Join(dir, "native", "telegram.js")
	h.open(module)
	h.waitChecked(dir)
	info := func(tool string) (ide.NativeToolInfo, error) {
		out, err := h.command(CommandNativeTool, map[string]any{"dir": dir, "tool": tool})
		var got ide.NativeToolInfo
		if err == nil {
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%s: %v", out, err)
			}
		}
		return got, err
	}
	got, err := info("tg.sendMessage")
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := map[string]any{
		"type":       "object",
		"properties": map[string]any{"chat": map[string]any{"type": "string"}, "text": map[string]any{"type": "string"}},
		"required":   []any{"chat", "text"},
		"examples":   []any{map[string]any{"chat": "@books", "text": "Finished The Hobbit"}},
	}
	if got.Name != "tg.sendMessage" || got.Module != "native/telegram.js" || !strings.HasPrefix(got.ModuleHash, "sha256:") ||
		got.Description != "Send a Telegram message to a chat" || !got.InputSchemaKnown || !reflect.DeepEqual(got.InputJSONSchema, wantSchema) ||
		!reflect.DeepEqual(got.Requires, []string{"secrets.read", "network.socket"}) || got.NeedsApproval != "always" {
		t.Fatalf("tg.sendMessage: %s", dump(got))
	}

	// The editor's text, not the file: an unsaved edit of the schema is what the panel gets.
	text, err := os.ReadFile(module)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), `properties: { chat: { type: "string" } }`, `properties: { chat: { type: "string" }, limit: { type: "integer", default: 20 } }`, 1)
	if edited == string(text) {
		t.Fatal("the example's readChat schema changed: update the test")
	}
	h.change(module, 2, edited)
	h.waitChecked(dir)
	got, err = info("tg.readChat")
	if err != nil {
		t.Fatal(err)
	}
	props, _ := got.InputJSONSchema.(map[string]any)["properties"].(map[string]any)
	if _, ok := props["limit"]; !ok || got.NeedsApproval != "never" {
		t.Fatalf("tg.readChat after the edit: %s", dump(got))
	}

	// A schema the module computes is not data: no schema, said so.
	computed := strings.Replace(edited, `inputJsonSchema: { type: "object", properties: { chat: { type: "string" }, limit: { type: "integer", default: 20 } } }`, `inputJsonSchema: makeSchema()`, 1)
	if computed == edited {
		t.Fatal("the computed-schema edit did not apply")
	}
	h.change(module, 3, "function makeSchema() { return { type: \"object\" }; }\n"+computed)
	h.waitChecked(dir)
	got, err = info("tg.readChat")
	if err != nil || got.InputSchemaKnown || got.InputJSONSchema != nil {
		t.Fatalf("a computed schema: %v %s", err, dump(got))
	}

	for _, tool := range []string{"lookupBook", "tg.undeclared", ""} {
		if _, err := info(tool); err == nil || rpcCode(err) != jsonrpc2.InvalidParams {
			t.Errorf("%q: %v, want InvalidParams", tool, err)
		}
	}
	if _, err := h.server.ExecuteCommand(h.ctx, &protocol.ExecuteCommandParams{Command: CommandNativeTool}); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("no argument: %v", err)
	}
}
