package checker

import (
	"io/fs"
	"path/filepath"
	"time"
)

// Overlay is an FS that serves in-memory files over Base: an editor's
// unsaved buffers, or edits a test applies. A file in Files wins over the
// disk, and may not exist on disk at all. Files must not change while a
// plugin loaded through the overlay is being checked: build a new map per
// check (the language server does) so a check never sees half an edit.
type Overlay struct {
	Files map[string][]byte // cleaned absolute OS path → text
	Base  FS                // nil means the real file system
}

func (o *Overlay) base() FS {
	if o.Base == nil {
		return OSFS{}
	}
	return o.Base
}

func (o *Overlay) ReadFile(name string) ([]byte, error) {
	if b, ok := o.Files[filepath.Clean(name)]; ok {
		return b, nil
	}
	return o.base().ReadFile(name)
}

func (o *Overlay) Lstat(name string) (fs.FileInfo, error) {
	if b, ok := o.Files[filepath.Clean(name)]; ok {
		// An in-memory file counts as a regular file even when it is not
		// on disk; a symlink on disk keeps its own Lstat so that the
		// "outside the directory" checks still see it.
		if fi, err := o.base().Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return fi, nil
		}
		return memInfo{name: filepath.Base(name), size: int64(len(b))}, nil
	}
	return o.base().Lstat(name)
}

func (o *Overlay) EvalSymlinks(name string) (string, error) {
	real, err := o.base().EvalSymlinks(name)
	if err == nil {
		return real, nil
	}
	if _, ok := o.Files[filepath.Clean(name)]; ok {
		// Not on disk (yet): resolve the directory, keep the base name.
		dir, derr := o.base().EvalSymlinks(filepath.Dir(name))
		if derr != nil {
			return filepath.Clean(name), nil
		}
		return filepath.Join(dir, filepath.Base(name)), nil
	}
	return "", err
}

// memInfo describes an in-memory file.
type memInfo struct {
	name string
	size int64
}

func (m memInfo) Name() string       { return m.name }
func (m memInfo) Size() int64        { return m.size }
func (m memInfo) Mode() fs.FileMode  { return 0o644 }
func (m memInfo) ModTime() time.Time { return time.Time{} }
func (m memInfo) IsDir() bool        { return false }
func (m memInfo) Sys() any           { return nil }
