package checker

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
)

// DirFS is an FS that can list a directory; OSFS and Overlay are.
type DirFS interface {
	ReadDir(name string) ([]fs.DirEntry, error)
}

func (OSFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

// ReadDir lists the base's directory with the overlay's files in it
// (files only: an overlay holds no directories).
func (o *Overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	var out []fs.DirEntry
	seen := map[string]bool{}
	if d, ok := o.base().(DirFS); ok {
		if es, err := d.ReadDir(name); err == nil {
			for _, e := range es {
				seen[e.Name()] = true
				out = append(out, e)
			}
		}
	}
	dir := filepath.Clean(name)
	for p, b := range o.Files {
		if filepath.Dir(p) == dir && !seen[filepath.Base(p)] {
			seen[filepath.Base(p)] = true
			out = append(out, fs.FileInfoToDirEntry(memInfo{name: filepath.Base(p), size: int64(len(b))}))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// maxListed bounds how many names Siblings reads from one directory.
const maxListed = 2000

// Siblings returns the plugin-relative paths of the regular files in the
// directory that would hold rel (which need not exist), sorted; nil when
// the directory cannot be listed or leaves the plugin. It is what a
// did-you-mean for a path compares against.
func (p *Plugin) Siblings(rel string) []string {
	c, err := Clean(rel)
	if err != nil {
		return nil
	}
	dir := path.Dir(c)
	if dir != "." && p.CheckInside(dir) != nil {
		return nil
	}
	d, ok := p.FS.(DirFS)
	if !ok {
		return nil
	}
	es, err := d.ReadDir(p.Abs(dir))
	if err != nil {
		return nil
	}
	var out []string
	for i, e := range es {
		if i == maxListed {
			break
		}
		if !e.Type().IsRegular() {
			continue
		}
		out = append(out, path.Join(dir, e.Name()))
	}
	return out
}

// File returns a file of the plugin by relative path: the manifest and
// fixtures as loaded, any other through ReadFile; nil when it cannot be
// read.
func (p *Plugin) File(rel string) *File {
	switch {
	case rel == ManifestName:
		return p.ManifestFile
	case rel == FixturesName && p.FixturesFile != nil:
		return p.FixturesFile
	}
	f, err := p.ReadFile(rel)
	if err != nil {
		return nil
	}
	return f
}
