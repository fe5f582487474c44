package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const devSecret = "dev-secret-9d2f41"

// The page bundle may import only files under code/: the dev secrets in
// fixtures.json, the manifest and .plugin/ are unreachable by
// construction, by a direct import, through a symlink, or by binding the
// file as the page itself.
func TestCompileImportsOnlyCode(t *testing.T) {
	fixtures := `{"secrets":{"k":"` + devSecret + `"}}`
	refused := map[string]string{
		`import fx from "../fixtures.json"; export default () => fx.secrets.k;`:                  "fixtures.json holds the dev secrets",
		`import fx from "./../fixtures.json"; export default () => fx;`:                          "fixtures.json holds the dev secrets",
		`import m from "../plugin.json"; export default () => m;`:                                "the manifest is the host's",
		`import t from "../.plugin/types.js"; export default () => t;`:                           ".plugin/",
		`import x from "../lib/util"; export default () => x;`:                                   "outside code/",
		`export default async () => (await import("../fixtures.json")).default;`:                 "fixtures.json holds the dev secrets",
		`import fx from "./link.json"; export default () => fx;`:                                 "leads out of code/ through a symlink",
		`import fx from "./up/fixtures.json"; export default () => fx;`:                          "leads out of code/ through a symlink",
		`import fx from "../../fixtures.json"; export default () => fx;`:                         "leaves the plugin directory",
		`import fx from "./nested/../../fixtures.json"; export default () => fx;`:                "outside code/",
		`export { default } from "../fixtures.json";`:                                            "fixtures.json holds the dev secrets",
		`import fx from "../fixtures.json" with { type: "json" }; export default () => fx;`:      "fixtures.json holds the dev secrets",
		`import fx from "../fixtures"; export default () => fx;`:                                 "outside code/",
		"import fx from \"../fixtures.json\"\nexport default () => JSON.stringify(fx).split('')": "fixtures.json holds the dev secrets",
	}
	for src, want := range refused {
		p := writePlugin(t, map[string]string{
			"code/page.ts": src, "fixtures.json": fixtures, ".plugin/types.js": "export default 1;",
			"lib/util.ts": "export default 1;", "code/data.json": `{"ok":1}`,
		})
		os.Symlink("../fixtures.json", filepath.Join(p.Dir, "code", "link.json"))
		os.Symlink("..", filepath.Join(p.Dir, "code", "up"))
		prog, err := Compile(p, "code/page.ts")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s\n  want a CompileError containing %q, got %v", src, want, err)
		}
		if ce, ok := err.(*CompileError); !ok || ce.File != "code/page.ts" || ce.Line < 1 {
			t.Errorf("%s\n  not positioned on the page: %#v", src, err)
		}
		if prog != nil && strings.Contains(prog.Code, devSecret) {
			t.Errorf("%s\n  the secret is in the bundle", src)
		}
	}
	// JSON data and code under code/ are fine.
	p := writePlugin(t, map[string]string{
		"code/page.ts":   `import d from "./data.json"; import { f } from "./lib/f"; export default () => d.ok + f();`,
		"code/data.json": `{"ok":1}`, "code/lib/f.ts": "export const f = () => 1;", "fixtures.json": fixtures,
	})
	if _, err := Compile(p, "code/page.ts"); err != nil {
		t.Errorf("imports under code/: %v", err)
	}
	// A page is code: fixtures.json bound as the page does not compile.
	for _, page := range []string{"fixtures.json", "code/data.json"} {
		p := writePlugin(t, map[string]string{"fixtures.json": fixtures, "code/data.json": `{"ok":1}`})
		if prog, err := Compile(p, page); err == nil || !strings.Contains(err.Error(), "a page is a .ts, .mts, .js or .mjs file") {
			t.Errorf("page %s: %v", page, err)
		} else if prog != nil {
			t.Errorf("page %s compiled", page)
		}
	}
}
