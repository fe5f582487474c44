package checker

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DirWithin reports whether dir is root or a directory below it reached
// without a symbolic link: root and dir are absolute OS paths, dir has no
// ".." component, and every component of dir below root is a real
// directory (os.Lstat), not a symlink. The language server calls it to
// decide whether a plugin directory is inside a workspace folder (its
// authority); root itself is what the user opened and may be a symlink.
// A refusal says which component is at fault.
func DirWithin(root, dir string) error {
	if !filepath.IsAbs(root) || !filepath.IsAbs(dir) {
		return fmt.Errorf("%s: not an absolute path", dir)
	}
	for _, seg := range strings.Split(filepath.ToSlash(dir), "/") {
		if seg == ".." {
			return fmt.Errorf("%s contains '..'", dir)
		}
	}
	root, dir = filepath.Clean(root), filepath.Clean(dir)
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not inside %s", dir, root)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", root)
	}
	if rel == "." {
		return nil
	}
	at := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		switch {
		case err != nil:
			return fmt.Errorf("%s: %v", at, unwrapPath(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link", at)
		case !fi.IsDir():
			return fmt.Errorf("%s is not a directory", at)
		}
	}
	return nil
}
