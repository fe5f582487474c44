package checker

import (
	"fmt"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
)

// CodeDir is the plugin's code directory. A page's bundle is made only of
// files under it: the manifest, fixtures.json (which holds the dev
// secrets), plugin.lock.json, .plugin/ and everything else outside code/
// are unreachable from page code by construction, whatever the page
// imports.
const CodeDir = "code"

// ImportRefusedError is an import page code may not make (as opposed to
// one naming a file that does not exist).
type ImportRefusedError struct{ Msg string }

func (e *ImportRefusedError) Error() string { return e.Msg }

func refused(format string, args ...any) error {
	return &ImportRefusedError{Msg: fmt.Sprintf(format, args...)}
}

// ResolvePageImport resolves the module specifier spec, imported by the
// plugin file importer (a slash path), to the plugin file it names. It is
// the one definition of what page code may import, used by the compiler
// and by `check`: a relative path to a .ts/.mts/.js/.mjs/.json file under
// code/ that exists and does not lead out of code/ through a symlink.
// Everything else is refused with the reason: packages, qjs:, node: and
// URL modules (the sandbox has none), paths leaving the plugin, files
// outside code/.
func ResolvePageImport(fsys FS, dir, importer, spec string) (string, error) {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", refused("import %q refused: a page may import only relative files under %s/ (the sandbox has no packages and no qjs:, node: or URL modules)", spec, CodeDir)
	}
	c, err := Clean(path.Join(path.Dir(importer), spec))
	if err != nil {
		return "", refused("import %q refused: it leaves the plugin directory", spec)
	}
	if !underCode(c) {
		return "", refused("import %q refused: %s is outside %s/, and a page may import only files under %s/ (%s)", spec, c, CodeDir, CodeDir, outsideWhy(c))
	}
	for _, cand := range jslex.ImportCandidates(c) {
		fi, err := fsys.Lstat(joinRel(dir, cand))
		if err != nil || fi.IsDir() {
			continue
		}
		// After every symlink (of code/ itself, of a directory, of the
		// file), the file must still be under the plugin's code/.
		if checkInside(fsys, dir, CodeDir) != nil || checkInside(fsys, joinRel(dir, CodeDir), strings.TrimPrefix(cand, CodeDir+"/")) != nil {
			return "", refused("import %q refused: %s leads out of %s/ through a symlink", spec, cand, CodeDir)
		}
		return cand, nil
	}
	return "", fmt.Errorf("import %q: no file %s in the plugin", spec, strings.Join(jslex.ImportCandidates(c), ", "))
}

func underCode(c string) bool { return strings.HasPrefix(c, CodeDir+"/") }

// outsideWhy names what a file outside code/ is.
func outsideWhy(c string) string {
	switch {
	case c == FixturesName:
		return "fixtures.json holds the dev secrets: only the broker reads it"
	case c == ManifestName:
		return "the manifest is the host's, not the page's"
	case strings.HasPrefix(c, ".") || strings.Contains(c, "/."):
		return "hidden files and directories such as .plugin/ are tooling state"
	}
	return "move the file into " + CodeDir + "/"
}
