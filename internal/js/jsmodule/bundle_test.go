package jsmodule

import (
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// A module as authors really ship it: TypeScript bundled by esbuild to
// ESM, with a CommonJS dependency inlined. ReadExports must read its tools
// map and see no CommonJS in it.
func TestEsbuildBundle(t *testing.T) {
	virtual := api.Plugin{Name: "virtual", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^proto-lib$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "proto-lib", Namespace: "virtual"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "virtual"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := "exports.connect = function (host) { return { send: function (m) { return m; } }; };\nmodule.exports.version = 3;\n"
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
	}}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{Loader: api.LoaderTS, Contents: `
import { connect } from "proto-lib";
interface Args { chat: string; text: string }
const NS = "tg.";
async function* stream(n: number) { for (let i = 0; i < n; i++) yield i; }
export const tools = {
  [NS + "sendMessage"]: {
    description: "Send a message",
    requires: ["secrets.read", "network.socket"],
    async execute(args: Args, ctx: any) {
      for await (const x of stream(1)) void x;
      return connect("host").send(args.text);
    },
  },
  "tg.readChat": { description: "Read a chat", needsApproval: false, async execute() { return []; } },
};
`},
		Bundle: true, Format: api.FormatESModule, Platform: api.PlatformNode, Target: api.ES2022,
		Plugins: []api.Plugin{virtual}, Write: false, LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 || len(res.OutputFiles) != 1 {
		t.Fatalf("esbuild: %+v", res.Errors)
	}
	out := string(res.OutputFiles[0].Contents)
	m := ReadExports([]byte(out))
	if !m.IsESM() || m.Tools == nil || len(m.Tools.Unknowable) != 0 || m.Unreadable != nil {
		t.Fatalf("bundle misread:\n%s\n--- bundle\n%s", describe(out, m), out)
	}
	var names []string
	for _, e := range m.Tools.Entries {
		names = append(names, e.Name)
	}
	if len(names) != 2 || names[0] != "tg.sendMessage" || names[1] != "tg.readChat" {
		t.Errorf("names = %v\n%s", names, describe(out, m))
	}
	// esbuild's helpers (__commonJS, __toESM, defineProperty on its own
	// objects) and a for await in a body change nothing of the tools.
	if cs := m.Changes("tools"); len(cs) > 0 {
		t.Errorf("the bundle's tools read as changed: %+v\n--- bundle\n%s", cs, out)
	}
}
