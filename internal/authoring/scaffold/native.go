package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/tstypes"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonedit"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// nativeName is a native tool name: dot-separated parts as the manifest
// schema takes them (tg.sendMessage, chat.send, mqtt.publish).
var nativeName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$`)

// NativeModuleDir is where init puts native modules.
const NativeModuleDir = "native"

// InitNative creates a plugin in dir (when it has no plugin.json) with one
// native tool, or adds the native tool to the plugin there: a module
// (native/<name>.js, checked through // @ts-check against the generated
// .plugin/native.d.ts), its nativeTools entry and "sdk": 1 in plugin.json,
// a test file naming it, native/tsconfig.json (so `tsc -p native` checks
// the module) and the generated types. Like Init it never overwrites a
// file.
func InitNative(dir, name string) ([]Change, error) {
	switch {
	case !nativeName.MatchString(name):
		return nil, fmt.Errorf("native tool name %q is not dot-separated identifiers (letters, digits, '_' and '-'), like \"chat.send\"", name)
	case strings.HasPrefix(name, checker.ReservedPrefix):
		return nil, fmt.Errorf("native tool name %q starts with %q, the namespace of function tools", name, checker.ReservedPrefix)
	case checker.DefaultCatalogue().Has(name):
		return nil, fmt.Errorf("native tool name %q is a built-in tool's: pick a name with a prefix of your own, like \"myplugin.%s\"", name, name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	stem := nativeStem(abs, name)
	module := NativeModuleDir + "/" + stem + ".js"
	var changes []Change
	manifest := filepath.Join(abs, checker.ManifestName)
	if _, err := os.Lstat(manifest); errors.Is(err, fs.ErrNotExist) {
		if err := create(abs, checker.ManifestName, newNativeManifest(pluginName(abs), module, name)); err != nil {
			return nil, err
		}
		changes = append(changes, Change{Path: checker.ManifestName, Action: "created"})
	} else {
		p, err := checker.Load(checker.OSFS{}, abs)
		if err != nil {
			return changes, err
		}
		if p.SyntaxError != nil || p.Manifest.Root == nil || p.Manifest.Root.Kind != jsonpos.Object {
			return changes, fmt.Errorf("%s does not parse: fix it first (plugin-lsp check %s)", manifest, dir)
		}
		if m, ok := declaredModule(p.Manifest, name); ok {
			module = m // already declared: its module, test and types
			stem = strings.TrimSuffix(filepath.Base(m), filepath.Ext(m))
		}
		c, err := addNativeToManifest(p, module, name)
		if err != nil {
			return changes, err
		}
		changes = append(changes, c...)
	}
	for _, f := range []struct{ rel, text string }{
		{module, nativeModule(module, name)},
		{NativeModuleDir + "/" + tstypes.TsconfigName, nativeTsconfig},
		{"tests/" + stem + ".json", nativeTest(name)},
	} {
		if _, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(f.rel))); err == nil {
			changes = append(changes, Change{Path: f.rel, Action: "kept"})
			continue
		}
		if err := create(abs, f.rel, f.text); err != nil {
			return changes, err
		}
		changes = append(changes, Change{Path: f.rel, Action: "created"})
	}
	p, err := checker.Load(checker.OSFS{}, abs)
	if err != nil {
		return changes, err
	}
	return writeTypes(p, changes)
}

// nativeStem is the module's and the test's file stem: the name in kebab
// case with its dots as dashes (chat.sendMessage → chat-send-message),
// numbered when a module or test of that stem exists for another tool.
func nativeStem(dir, name string) string {
	base := kebabCase(strings.ReplaceAll(name, ".", "_"))
	if base == "" {
		base = "tool"
	}
	stem := base
	for n := 2; n < 100; n++ {
		_, e1 := os.Lstat(filepath.Join(dir, NativeModuleDir, stem+".js"))
		_, e2 := os.Lstat(filepath.Join(dir, "tests", stem+".json"))
		if e1 != nil && e2 != nil {
			return stem
		}
		stem = fmt.Sprintf("%s-%d", base, n)
	}
	return base
}

// declaredModule is the module of nativeTools that already names name.
func declaredModule(m *checker.Manifest, name string) (string, bool) {
	for _, nt := range m.NativeTools {
		for _, n := range nt.Names {
			if s, _ := checker.Str(n); s == name {
				mod, ok := checker.Str(nt.Module)
				if rel, err := checker.Clean(mod); ok && err == nil {
					return rel, true
				}
			}
		}
	}
	return "", false
}

func newNativeManifest(plugin, module, name string) string {
	return `{
  "name": ` + quote(plugin) + `,
  "version": "0.1.0",
  "sdk": 1,
  "nativeTools": [
    ` + nativeEntry(module, name) + `
  ]
}
`
}

func nativeEntry(module, name string) string {
	return `{ "module": ` + quote(module) + `, "names": [` + quote(name) + `] }`
}

// addNativeToManifest adds "sdk": 1 when missing and the nativeTools
// entry of the tool when no entry names it, one edit at a time.
func addNativeToManifest(p *checker.Plugin, module, name string) ([]Change, error) {
	text := p.ManifestFile.Text
	var notes []string
	for _, step := range []string{"sdk", "entry"} {
		f := checker.NewFile(checker.ManifestName, text)
		root, serr := jsonpos.Parse(text)
		if serr != nil {
			return nil, fmt.Errorf("plugin.json: %s", serr.Message)
		}
		if err := jsonpos.CheckDuplicates(text, root); err != nil {
			return nil, fmt.Errorf("plugin.json:%v", err)
		}
		m := checker.NewManifest(root)
		var e checker.Edit
		var err error
		switch step {
		case "sdk":
			if m.SDK != nil {
				continue // a wrong value is native-sdk-missing's to report, not init's to change
			}
			e, err = jsonedit.InsertMember(f, root, "sdk", "1")
			notes = append(notes, `"sdk": 1`)
		case "entry":
			if _, ok := declaredModule(m, name); ok {
				continue
			}
			e, err = jsonedit.AddToPath(f, root, []string{"nativeTools"}, nativeEntry(module, name))
			notes = append(notes, "native tool "+name)
		}
		if err != nil {
			return nil, fmt.Errorf("plugin.json: cannot add %s: %v", notes[len(notes)-1], err)
		}
		text = apply(text, e)
	}
	if len(notes) == 0 {
		return []Change{{Path: checker.ManifestName, Action: "kept", Note: "native tool " + name + " already declared"}}, nil
	}
	if err := checker.WritePluginFile(p.Dir, checker.ManifestName, text); err != nil {
		return nil, err
	}
	return []Change{{Path: checker.ManifestName, Action: "updated", Note: "added " + strings.Join(notes, ", ")}}, nil
}

// nativeModule is the template module: one tool that needs no capability
// (so its ctx is callId, claim, signal and log), with its input typed
// from its own schema through .plugin/native.d.ts.
func nativeModule(module, name string) string {
	return `// @ts-check
// The native tool ` + name + ` (the full-trust lane), written by plugin-lsp init.
// It runs in Node.js with the authority of the user's machine: ctx has only
// what "requires" names (docs/broker-capabilities.md), and the reviewer sees
// that list on the install card.
//   plugin-lsp check .                         checks the module and the manifest
//   plugin-lsp run --trust-native . ` + name + `   runs it (with its example input)
//   plugin-lsp test --trust-native .           runs tests/*.json
// The types come from .plugin/native.d.ts (plugin-lsp types writes it).

/** @type {import("../.plugin/native.js").NativeTools<` + quote(module) + `>} */
export const tools = {
  ` + quote(name) + `: {
    description: "Say hello (replace with what ` + name + ` does)",
    inputJsonSchema: {
      type: "object",
      properties: { name: { type: "string", description: "Who to greet" } },
      required: ["name"],
      additionalProperties: false,
      examples: [{ name: "world" }],
    },
    requires: [],
    async execute(args, ctx) {
      ctx.log("greeting " + args.name);
      return { greeting: "Hello, " + args.name + "!" };
    },
  },
};
`
}

// nativeTsconfig checks the native modules that say // @ts-check against
// .plugin/native.d.ts (npx tsc -p native). Node's own types are the
// author's to add (npm i -D @types/node, then "types": ["node"]).
const nativeTsconfig = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022", "DOM"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "allowJs": true,
    "strict": true,
    "noEmit": true
  },
  "include": ["*.js", "*.mjs", "../.plugin/native.d.ts"]
}
`

func nativeTest(name string) string {
	return `{
  "$schema": "../.plugin/tests.schema.json",
  "tool": ` + quote(name) + `,
  "cases": [
    {
      "name": "greets by name",
      "input": { "name": "world" },
      "result": { "greeting": "Hello, world!" }
    }
  ]
}
`
}
