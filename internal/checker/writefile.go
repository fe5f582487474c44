package checker

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrRefused is what every refusal of the plugin-file writer matches
// (errors.Is): the write was not done because the path could lead out of
// the plugin or replace something that is not a plain file of its own.
var ErrRefused = errors.New("refused")

// WriteRefusal is a refusal of the plugin-file writer. Its message names
// the plugin-relative path and why: ".plugin/types.d.ts: refused: a
// symlink", "code/x.ts: refused: code is a symlink".
type WriteRefusal struct {
	Path   string // plugin-relative, as the caller gave it
	Reason string
	Err    error // the lexical cause (ErrOutside), or nil
}

func (e *WriteRefusal) Error() string        { return e.Path + ": refused: " + e.Reason }
func (e *WriteRefusal) Is(target error) bool { return target == ErrRefused }
func (e *WriteRefusal) Unwrap() error        { return e.Err }
func refuse(rel, format string, a ...any) error {
	return &WriteRefusal{Path: rel, Reason: fmt.Sprintf(format, a...)}
}

// WritePluginFile is the one writer of plugin files: everything the
// project writes into a plugin directory (types, init, pin, check --fix,
// run --record, test --update, the editor's accept-snapshot and type
// regeneration) goes through it, CreatePluginFile or RemovePluginFile.
//
// rel (a slash path, see Clean) is resolved inside dir one component at a
// time, without following a symlink: a symlink anywhere on the way (even
// one that stays inside), "..", an absolute path, a component that is not
// a directory, a target that is not a regular file (a FIFO, a device, a
// directory) and a target with more than one hard link are refused with a
// *WriteRefusal (ErrRefused). Missing directories are created. The data
// goes to a new temporary file in the target's directory, which is then
// renamed over the target, so a reader sees the old file or the new one
// and the target's old inode (another name of it, a file it pointed at)
// is never written. Before the rename the target is looked at again: if
// it is no longer the file first seen (or something appeared where there
// was nothing), the write is refused.
//
// The walk holds each directory open (os.Root, openat(2) with O_NOFOLLOW
// on Unix) and checks that what it opened is what it looked at (same
// device and inode), so a component swapped for a symlink between the
// look and the open is refused too; os.Root alone already keeps every
// operation inside dir whatever is swapped. A replaced file keeps its
// permission bits; a new one is 0644 (before the umask).
func WritePluginFile(dir, rel string, data []byte) error {
	return writePluginFile(dir, rel, data, writeReplace, nil)
}

// CreatePluginFile writes a file that must not exist yet (init never
// overwrites): the same walk and refusals as WritePluginFile, then the
// temporary file is hard-linked to the target name, which fails when
// anything (a file, a symlink) is already there; the error then matches
// fs.ErrExist. On a file system without hard links the temporary file is
// renamed instead, after a last look that nothing is there.
func CreatePluginFile(dir, rel string, data []byte) error {
	return writePluginFile(dir, rel, data, writeCreate, nil)
}

// RemovePluginFile removes a regular file of the plugin (test --update
// when no snapshot is left). A path that does not exist is not an error;
// the walk refuses what WritePluginFile refuses and creates nothing.
func RemovePluginFile(dir, rel string) error {
	return writePluginFile(dir, rel, nil, writeRemove, nil)
}

// CheckPluginWrite reports whether WritePluginFile would write rel now:
// the same walk and refusals, creating and writing nothing (a missing
// directory is fine). check --fix asks it for every file of a fix before
// writing any, so that a fix is written whole or not at all.
func CheckPluginWrite(dir, rel string) error {
	return writePluginFile(dir, rel, nil, writeLook, nil)
}

type writeMode int

const (
	writeReplace writeMode = iota
	writeCreate
	writeRemove
	writeLook
)

// writeStep names the moments a test may act at (a race): after a
// directory was looked at and before it is opened ("dir"); after it was
// opened ("opened", Root is the opened one); after the target was looked
// at ("target"); after the last look, right before the rename or link
// ("rename").
type writeStep struct {
	At   string // "dir", "opened", "target", "rename"
	Rel  string // the component's plugin-relative path
	Root *os.Root
}

func writePluginFile(dir, rel string, data []byte, mode writeMode, hook func(writeStep)) error {
	c, err := cleanWritePath(rel)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, unwrapPath(err))
	}
	parts := strings.Split(c, "/")
	cur := root
	defer func() { cur.Close() }()
	for i, part := range parts[:len(parts)-1] {
		at := strings.Join(parts[:i+1], "/")
		fi, err := cur.Lstat(part)
		if errors.Is(err, fs.ErrNotExist) {
			if mode == writeLook || mode == writeRemove {
				return nil // nothing further down to refuse, or to remove
			}
			if err = cur.Mkdir(part, 0o755); err == nil || errors.Is(err, fs.ErrExist) {
				fi, err = cur.Lstat(part)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", rel, at, unwrapPath(err))
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return refuse(rel, "%s is a symlink", at)
		}
		if !fi.IsDir() {
			return refuse(rel, "%s is not a directory (%s)", at, fileKind(fi.Mode()))
		}
		if hook != nil {
			hook(writeStep{"dir", at, cur})
		}
		next, err := cur.OpenRoot(part)
		if err != nil {
			return refuse(rel, "%s changed while it was opened (%v)", at, unwrapPath(err))
		}
		st, err := next.Stat(".")
		if err != nil || !os.SameFile(fi, st) {
			next.Close()
			return refuse(rel, "%s changed while it was opened", at)
		}
		cur.Close()
		cur = next
		if hook != nil {
			hook(writeStep{"opened", at, cur})
		}
	}
	name := parts[len(parts)-1]
	old, err := lookTarget(cur, rel, name)
	if err != nil || mode == writeLook {
		return err
	}
	if hook != nil {
		hook(writeStep{"target", c, cur})
	}
	switch mode {
	case writeCreate:
		if old != nil {
			return fmt.Errorf("%s: %w", rel, fs.ErrExist)
		}
	case writeRemove:
		if old == nil {
			return nil
		}
		if err := sameTarget(cur, rel, name, old); err != nil {
			return err
		}
		if err := cur.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", rel, unwrapPath(err))
		}
		return nil
	}
	perm := fs.FileMode(0o644)
	if old != nil {
		perm = old.Mode().Perm()
	}
	tmp, err := writeTemp(cur, name, data, perm, old != nil)
	if err != nil {
		return fmt.Errorf("%s: %w", rel, unwrapPath(err))
	}
	if mode == writeCreate {
		if hook != nil {
			hook(writeStep{"rename", c, cur})
		}
		err = cur.Link(tmp, name)
		if err == nil || errors.Is(err, fs.ErrExist) {
			cur.Remove(tmp)
			if err != nil {
				return fmt.Errorf("%s: %w", rel, fs.ErrExist)
			}
			return nil
		}
		// No hard links here (some FUSE and network file systems): the
		// last look, then the rename.
		if _, err := cur.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
			cur.Remove(tmp)
			return fmt.Errorf("%s: %w", rel, fs.ErrExist)
		}
	} else {
		if err := sameTarget(cur, rel, name, old); err != nil {
			cur.Remove(tmp)
			return err
		}
		if hook != nil {
			hook(writeStep{"rename", c, cur})
		}
	}
	// rename(2) replaces the directory entry: whatever name holds by now
	// (a symlink swapped in after the last look) is replaced, never
	// written through.
	if err := cur.Rename(tmp, name); err != nil {
		cur.Remove(tmp)
		return fmt.Errorf("%s: %w", rel, unwrapPath(err))
	}
	return nil
}

// cleanWritePath is Clean for the writer: the same paths, refused with a
// *WriteRefusal.
func cleanWritePath(rel string) (string, error) {
	c, err := Clean(rel)
	switch {
	case err != nil && errors.Is(err, ErrOutside):
		why := "a path with '..'"
		switch {
		case strings.Contains(rel, "\\"):
			why = "a path with a backslash"
		case strings.HasPrefix(rel, "/") || (len(rel) > 1 && rel[1] == ':') || path.IsAbs(rel) || filepath.IsAbs(rel):
			why = "an absolute path"
		}
		return "", &WriteRefusal{Path: rel, Reason: why + " leaves the plugin directory", Err: ErrOutside}
	case err != nil:
		return "", &WriteRefusal{Path: rel, Reason: err.Error()}
	case c == ".":
		return "", &WriteRefusal{Path: rel, Reason: "the plugin directory is not a file"}
	}
	return c, nil
}

// lookTarget returns what is at name in cur (nil: nothing), refusing
// anything but a regular file with one link.
func lookTarget(cur *os.Root, rel, name string) (fs.FileInfo, error) {
	fi, err := cur.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %w", rel, unwrapPath(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, refuse(rel, "a symlink")
	case !fi.Mode().IsRegular():
		return nil, refuse(rel, "not a regular file (%s)", fileKind(fi.Mode()))
	}
	if n := linkCount(fi); n > 1 {
		return nil, refuse(rel, "a hard link (%d names for one file)", n)
	}
	return fi, nil
}

// sameTarget looks at name again: it must still be the file first seen
// (old), or still nothing (old nil).
func sameTarget(cur *os.Root, rel, name string, old fs.FileInfo) error {
	fi, err := lookTarget(cur, rel, name)
	if err != nil {
		return err
	}
	if (old == nil) != (fi == nil) || (old != nil && !os.SameFile(old, fi)) {
		return refuse(rel, "it changed while it was being written")
	}
	return nil
}

// writeTemp writes data to a new file beside name (".name.<random>.tmp",
// created exclusively: an existing name, a symlink included, fails) and
// returns its name.
func writeTemp(cur *os.Root, name string, data []byte, perm fs.FileMode, exact bool) (string, error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := "." + name + "." + hex.EncodeToString(rnd[:]) + ".tmp"
	f, err := cur.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil && exact {
		err = f.Chmod(perm) // the replaced file's bits, not the umask's
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		cur.Remove(tmp)
		return "", err
	}
	return tmp, nil
}
