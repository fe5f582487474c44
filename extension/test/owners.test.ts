// Who reports what in VS Code (src/owners.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeOf, withoutJsonServiceDuplicates } from "../src/owners";

describe("one report per problem", () => {
  const ds = [
    { code: "manifest-syntax", message: "trailing comma" },
    { code: { value: "manifest-syntax", target: "https://example.invalid/rules#manifest-syntax" }, message: "same, with a docs link" },
    { code: "manifest-schema", message: "unknown key" },
    { code: "fetch-undeclared-domain", message: "not in capabilities.fetch" },
    { message: "no code" },
  ];
  it("drops plugin-lsp's syntax errors on JSON files, where VS Code's JSON service reports them", () => {
    for (const path of ["/p/plugin.json", "/p/fixtures.json", "C:\\p\\PLUGIN.JSON"]) {
      assert.deepEqual(
        withoutJsonServiceDuplicates(path, ds).map((d) => d.message),
        ["unknown key", "not in capabilities.fetch", "no code"],
        path,
      );
    }
  });
  it("keeps everything on pages and modules", () => {
    for (const path of ["/p/code/page.ts", "/p/native/mod.js", "/p/plugin.json.ts"]) {
      assert.equal(withoutJsonServiceDuplicates(path, ds).length, ds.length, path);
    }
  });
  it("reads codes in every shape VS Code gives them", () => {
    assert.equal(codeOf("a"), "a");
    assert.equal(codeOf(7), "7");
    assert.equal(codeOf({ value: "b", target: {} }), "b");
    assert.equal(codeOf(undefined), "");
  });
});
