package jslex

import "path"

// importExts are the files a page may import by their own name
// (TypeScript, JavaScript, JSON data).
var importExts = map[string]bool{".ts": true, ".mts": true, ".js": true, ".mjs": true, ".json": true}

// ImportCandidates returns the files tried, in order, for a cleaned
// relative import path: the path itself when it names a .ts, .mts, .js,
// .mjs or .json file, else <p>.ts, <p>.js, <p>/index.ts, <p>/index.js.
// It is the one list: the compiler's resolver (checker.ResolvePageImport)
// and the page analysis (internal/js/jspage) both try it.
func ImportCandidates(p string) []string {
	if importExts[path.Ext(p)] {
		return []string{p}
	}
	return []string{p + ".ts", p + ".js", p + "/index.ts", p + "/index.js"}
}
