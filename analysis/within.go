package analysis

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

// CreatableWithin reports whether the plugin-relative file rel can be
// created inside dir without passing a symbolic link: rel is clean (no
// "..", not absolute), each of its directories that exists is a real
// directory, and rel itself does not exist. The language server offers a
// "Create page" edit only then: the client that applies it follows
// symlinks, so a symlinked code/ would put the file outside the plugin.
func CreatableWithin(dir, rel string) error {
	c, err := Clean(rel)
	if err != nil {
		return err
	}
	at := dir
	parts := strings.Split(c, "/")
	for i, part := range parts {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if err != nil {
			return nil // missing from here on: created as real directories
		}
		switch {
		case i == len(parts)-1:
			return fmt.Errorf("%s exists", c)
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link", strings.Join(parts[:i+1], "/"))
		case !fi.IsDir():
			return fmt.Errorf("%s is not a directory", strings.Join(parts[:i+1], "/"))
		}
	}
	return nil
}
