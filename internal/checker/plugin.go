package checker

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// ManifestName and FixturesName are the files a plugin directory holds at
// its root.
const (
	ManifestName = "plugin.json"
	FixturesName = "fixtures.json"
)

// FS is where a plugin's files are read from: the disk, or the disk under
// an editor's unsaved buffers. Paths are absolute OS paths. Read plugin
// files with ReadPluginFile (or Plugin.ReadFile), never FS.ReadFile.
type FS interface {
	// ReadFile must never block on a FIFO or a device, nor read without
	// bound (OSFS reads with ReadRegular).
	ReadFile(name string) ([]byte, error)
	Lstat(name string) (fs.FileInfo, error)
	// EvalSymlinks resolves every symlink in name (filepath.EvalSymlinks).
	EvalSymlinks(name string) (string, error)
}

// OSFS reads the real file system.
type OSFS struct{}

func (OSFS) ReadFile(name string) ([]byte, error)     { return ReadRegular(name, MaxFileSize) }
func (OSFS) Lstat(name string) (fs.FileInfo, error)   { return os.Lstat(name) }
func (OSFS) EvalSymlinks(name string) (string, error) { return filepath.EvalSymlinks(name) }

// Plugin is one loaded plugin directory. Loading never fails once the
// directory has a plugin.json: a broken manifest yields a partial Manifest
// plus SyntaxError.
//
// A Plugin is a snapshot, immutable once loaded and safe for concurrent
// use: the exported fields are never changed after Load, and the files it
// reads on demand (ReadFile, Exists, ResolvePage) are read once, under its
// own lock, and then answered the same way for its whole life. Callers
// (the language server's requests, the runner, esbuild's loaders) share
// one Plugin without a lock of their own. A change on disk or in an
// editor is a new Plugin.
type Plugin struct {
	Dir          string // absolute, cleaned
	FS           FS
	ManifestFile *File
	Manifest     *Manifest
	SyntaxError  *jsonpos.SyntaxError // manifest syntax error, if any

	// Fixtures is fixtures.json (nil when absent) with its parse result.
	FixturesFile  *File
	FixturesRoot  *jsonpos.Node
	FixturesError *jsonpos.SyntaxError

	files  memo[*File] // ReadFile results, errors included
	exists memo[bool]  // Exists results
}

// Load reads dir/plugin.json and dir/fixtures.json through fsys.
func Load(fsys FS, dir string) (*Plugin, error) {
	if fsys == nil {
		fsys = OSFS{}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	p := &Plugin{Dir: abs, FS: fsys}
	mf, err := p.ReadFile(ManifestName)
	if err != nil {
		return nil, fmt.Errorf("%s: not a plugin directory: %w", dir, err)
	}
	p.ManifestFile = mf
	root, serr := jsonpos.Parse(mf.Text)
	p.Manifest = NewManifest(root)
	p.SyntaxError = serr
	if ff, err := p.ReadFile(FixturesName); err == nil {
		p.FixturesFile = ff
		p.FixturesRoot, p.FixturesError = jsonpos.Parse(ff.Text)
	}
	return p, nil
}

// ErrOutside is returned for paths that leave the plugin directory.
var ErrOutside = errors.New("path leaves the plugin directory")

// Clean checks a manifest path (relative, slash-separated, no "..", not
// absolute) and returns it cleaned.
func Clean(rel string) (string, error) {
	if rel == "" {
		return "", errors.New("empty path")
	}
	if strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") || filepath.IsAbs(rel) || (len(rel) > 1 && rel[1] == ':') {
		return "", fmt.Errorf("%q is absolute: %w", rel, ErrOutside)
	}
	c := path.Clean(rel)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%q contains '..': %w", rel, ErrOutside)
		}
	}
	return c, nil
}

// Abs returns the OS path of a plugin-relative slash path.
func (p *Plugin) Abs(rel string) string { return joinRel(p.Dir, rel) }

func joinRel(dir, rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }

// Rel returns the plugin-relative slash path of an OS path, and false when
// the path is not inside the plugin directory.
func (p *Plugin) Rel(abs string) (string, bool) {
	r, err := filepath.Rel(p.Dir, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// ReadFile returns the file at a plugin-relative path through
// ReadPluginFile, read once per Plugin (a failure too: the snapshot
// answers the same way every time). It refuses paths that leave the
// directory, lexically or through a symlink, anything but a regular file
// and a file over MaxFileSize.
func (p *Plugin) ReadFile(rel string) (*File, error) {
	c, err := Clean(rel)
	if err != nil {
		return nil, err
	}
	return p.files.get(c, func() (*File, error) {
		b, err := ReadPluginFile(p.FS, p.Dir, c)
		if err != nil {
			return nil, err
		}
		return NewFile(c, b), nil
	})
}

// Cached returns the file at rel if ReadFile has read it (nothing is read
// here).
func (p *Plugin) Cached(rel string) (*File, bool) {
	c, err := Clean(rel)
	if err != nil {
		return nil, false
	}
	f, err, ok := p.files.peek(c)
	return f, ok && err == nil
}

// Exists reports whether a regular file is at rel (inside the directory).
func (p *Plugin) Exists(rel string) bool {
	c, err := Clean(rel)
	if err != nil {
		return false
	}
	if f, err, ok := p.files.peek(c); ok && err == nil && f != nil {
		return true
	}
	e, _ := p.exists.get(c, func() (bool, error) { return p.exists1(c), nil })
	return e
}

func (p *Plugin) exists1(c string) bool {
	fi, err := p.FS.Lstat(p.Abs(c))
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return p.CheckInside(c) == nil
	}
	// A regular file reached through a symlinked directory ("up/x" with
	// up -> ..) may lie outside: ReadFile refuses it, so Exists must too.
	if strings.Contains(c, "/") && p.CheckInside(c) != nil {
		return false
	}
	return fi.Mode().IsRegular()
}

// CheckInside resolves symlinks along rel and fails with ErrOutside when
// the target is not inside the plugin directory. A path that does not
// exist is inside (nothing to follow).
func (p *Plugin) CheckInside(rel string) error { return checkInside(p.FS, p.Dir, rel) }

func checkInside(fsys FS, pluginDir, rel string) error {
	dir, err := fsys.EvalSymlinks(pluginDir)
	if err != nil {
		dir = pluginDir
	} else if plainUnder(fsys, dir, rel) {
		return nil // dir has no symlink left, and nothing under it is one
	}
	real, err := fsys.EvalSymlinks(joinRel(pluginDir, rel))
	if err != nil {
		return nil
	}
	r, err := filepath.Rel(dir, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%q resolves to %s: %w", rel, real, ErrOutside)
	}
	return nil
}

// plainUnder reports whether every component of rel (a slash path with
// no "." or ".." component) below the resolved directory dir exists and
// is not a symlink: dir/rel is then its own real path, found with one
// Lstat per component of rel instead of resolving the plugin directory's
// whole path a second time (the run reads fixtures.json on every run).
// Anything else (a symlink, a missing file) takes the full resolution.
func plainUnder(fsys FS, dir, rel string) bool {
	if rel == "" || strings.HasPrefix(rel, "/") {
		return false
	}
	at := dir
	for _, part := range strings.Split(rel, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
		at = filepath.Join(at, part)
		fi, err := fsys.Lstat(at)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return false
		}
	}
	return true
}

// PageExtensions are tried in order for a page path without extension.
var PageExtensions = []string{".ts", ".js"}

// ResolvePage maps a tool's page ("code/lookup-book") to the file that
// holds it: <page>.ts, then <page>.js, or the exact path when it already
// has an extension. ok is false when no such file exists; rel is then the
// first candidate.
func (p *Plugin) ResolvePage(page string) (rel string, ok bool) {
	c, err := Clean(page)
	if err != nil {
		return page, false
	}
	if ext := path.Ext(c); ext != "" {
		return c, p.Exists(c)
	}
	for _, ext := range PageExtensions {
		if p.Exists(c + ext) {
			return c + ext, true
		}
	}
	return c + PageExtensions[0], false
}

// FindPlugins returns every directory at or below root that holds a
// plugin.json, skipping hidden directories and node_modules, and not
// descending into a plugin once found. Results are sorted.
func FindPlugins(root string) ([]string, error) { return findPlugins(root, false) }

// FindEveryPlugin returns every directory at or below root that holds a
// plugin.json, hidden directories, node_modules and plugins nested in
// plugins included (check --require-snapshot: a CI gate that skips a
// plugin it was pointed at would pass it unchecked). Symlinked
// directories are not followed. Results are sorted.
func FindEveryPlugin(root string) ([]string, error) { return findPlugins(root, true) }

func findPlugins(root string, every bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if !every && p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
			return filepath.SkipDir
		}
		if fi, err := os.Stat(filepath.Join(p, ManifestName)); err == nil && !fi.IsDir() { // a FIFO is a plugin whose load fails clearly
			out = append(out, p)
			if !every {
				return filepath.SkipDir
			}
		}
		return nil
	})
	return out, err
}

// InputsAgree reports whether q answers every read p has made the same
// way: each file p read (ReadFile, an error included) has the same bytes
// in q (q reads it), and each Exists answer of p is q's. A result worked
// out from what p read then stands for q, as long as q has read nothing
// p did not (ReadsWithin, after q's own work).
func (p *Plugin) InputsAgree(q *Plugin) bool {
	for _, rel := range p.files.keys() {
		f, err, _ := p.files.peek(rel)
		g, gerr := q.ReadFile(rel)
		if (err == nil) != (gerr == nil) || err == nil && !bytes.Equal(f.Text, g.Text) {
			return false
		}
	}
	for _, rel := range p.exists.keys() {
		e, _, _ := p.exists.peek(rel)
		if q.Exists(rel) != e {
			return false
		}
	}
	return true
}

// ReadsWithin reports whether every file q has read (ReadFile) or asked
// about (Exists), p has too.
func (q *Plugin) ReadsWithin(p *Plugin) bool {
	for _, rel := range q.files.keys() {
		if _, _, ok := p.files.peek(rel); !ok {
			return false
		}
	}
	for _, rel := range q.exists.keys() {
		if _, _, ok := p.exists.peek(rel); !ok {
			if _, _, read := p.files.peek(rel); !read {
				return false
			}
		}
	}
	return true
}
