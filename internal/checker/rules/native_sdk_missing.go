package rules

import (
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
)

// NativeSDKMissing reports nativeTools without "sdk": 1.
var NativeSDKMissing = &checker.Rule{
	Code:     "native-sdk-missing",
	Severity: checker.Error,
	Title:    "native tools need \"sdk\": 1",
	Doc: "Native tool modules ride the same `sdk: 1` gate as workflow bundles: a plugin that declares " +
		"`nativeTools` must say which SDK its modules are built against, and the installer refuses it " +
		"otherwise. Only `1` exists today. (A `sdk` with another value is a `manifest-schema` error.)",
	Lang:   "json",
	Before: "{\n  \"name\": \"chat\",\n  \"version\": \"1.0.0\",\n  \"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\"] }]\n}",
	After:  "{\n  \"name\": \"chat\",\n  \"version\": \"1.0.0\",\n  \"nativeTools\": [{ \"module\": \"native/telegram.js\", \"names\": [\"tg.sendMessage\"] }],\n  \"sdk\": 1\n}",
	Fix:    "Add `\"sdk\": 1` to the manifest.",
	Run: func(pass *checker.Pass) {
		m := pass.Plugin.Manifest
		if m.NativeToolsNode == nil || m.SDK != nil {
			return
		}
		d := checker.Diagnostic{
			File:    checker.ManifestName,
			Span:    checker.KeySpanOf(m.NativeToolsNode),
			Message: "nativeTools needs \"sdk\": 1 at the top level of plugin.json: native modules are gated on the SDK version",
		}
		if e, err := jsonedit.InsertMember(pass.Plugin.ManifestFile, m.Root, "sdk", "1"); err == nil {
			d.Fixes = []checker.Fix{{Title: "Add \"sdk\": 1", Edits: []checker.Edit{e}}}
		}
		pass.Report(d)
	},
}
