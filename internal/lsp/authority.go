package lsp

import (
	"path/filepath"
	"strings"

	"go.lsp.dev/uri"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// The server's authority is the workspace: every command (plugin.runTool,
// plugin.runTests, plugin.acceptSnapshot, plugin.generateTypes, plugin.pin,
// plugin.reviewCard) acts only on a plugin directory inside one of the
// client's workspace folders (initialize's workspaceFolders or rootUri,
// then workspace/didChangeWorkspaceFolders), reached from the folder
// without a symbolic link. A client that sent no folder gets the plugins
// of its open documents as the authority instead. Anything else is
// refused with InvalidParams, before the plugin is loaded, run or written.
//
// The server writes only in answer to the user: a command, or the save of
// a plugin.json (types regeneration, text_sync.go). Opening or editing a
// document never writes (docs/limits.md, "The workspace rule").

// authorize is the one decision "is dir inside my authority": nil when
// dir is a workspace folder or a directory below one with no symlinked
// component on the way (checker.DirWithin); with no workspace folder,
// when it is at or below the plugin directory of an open document.
// Callers hold s.mu.
func (s *Server) authorize(dir string) error {
	roots := s.authorityRoots()
	var why error
	for _, r := range roots {
		// A folder is the path the client sent; its real path (a folder
		// under a symlinked /tmp) names the same place.
		for _, at := range folderForms(r) {
			err := checker.DirWithin(at, dir)
			if err == nil {
				return nil
			}
			if _, under := relTo(at, dir); under || at == dir {
				why = err // inside lexically: say what is wrong on the way
			}
		}
	}
	where := "the workspace folders (" + strings.Join(roots, ", ") + ")"
	if len(s.roots) == 0 {
		where = "the plugins of the open documents (the client sent no workspace folder)"
		if len(roots) == 0 {
			where = "the workspace: the client sent no workspace folder and no plugin document is open"
		}
	}
	if why != nil {
		return invalidParams("%s is outside the workspace: %v; the server acts only on plugins inside %s, reached without a symbolic link", dir, why, where)
	}
	return invalidParams("%s is outside the workspace: the server acts only on plugins inside %s", dir, where)
}

// authorityRoots are the folders authorize accepts: the workspace
// folders, or, when the client sent none, the plugin directories of the
// open documents. Callers hold s.mu.
func (s *Server) authorityRoots() []string {
	if len(s.roots) > 0 {
		return s.roots
	}
	seen := map[string]bool{}
	var out []string
	for p := range s.docs {
		if ps := s.pluginFor(p); ps != nil && !seen[ps.dir] {
			seen[ps.dir] = true
			out = append(out, ps.dir)
		}
	}
	return out
}

// folderForms are the paths of a workspace folder: as sent and, when it
// differs, with its symlinks resolved.
func folderForms(root string) []string {
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		return []string{root, real}
	}
	return []string{root}
}

// mayWriteUnasked reports whether the server may write into the plugin
// of ps for a save (types regeneration): a plugin inside a workspace
// folder, or, when the client sent none, one the user already ran a
// command on in this session. Callers hold s.mu.
func (s *Server) mayWriteUnasked(ps *pluginState) bool {
	if len(s.roots) == 0 && !ps.commanded {
		return false
	}
	return s.authorize(ps.dir) == nil
}

// commandPath turns the "dir" or "uri" argument of a command into an
// absolute OS path: a file URI or an absolute plain path. A relative
// path (relative to what?), another URI scheme, a file URI with a host
// and a path with a ".." component are refused.
func commandPath(field, v string) (string, error) {
	p := v
	if !filepath.IsAbs(v) {
		u := uri.URI(v)
		switch sch := strings.ToLower(u.Scheme()); sch {
		case "file":
			p = u.FsPath()
		case "":
			return "", invalidParams("%q %s is a relative path, which counts as outside the workspace: give a file URI or an absolute path inside a workspace folder", field, v)
		default:
			return "", invalidParams("%q %s is not a file URI (scheme %q), so it is outside the workspace", field, v, sch)
		}
	}
	if strings.HasPrefix(filepath.ToSlash(p), "//") {
		return "", invalidParams("%q %s names a host, so it is outside the workspace: give a local file URI or path", field, v)
	}
	if !filepath.IsAbs(p) {
		return "", invalidParams("%q %s is a relative path, which counts as outside the workspace: give a file URI or an absolute path inside a workspace folder", field, v)
	}
	for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
		if seg == ".." {
			return "", invalidParams("%q %s has a '..' component, which counts as outside the workspace: give the plugin's own path", field, v)
		}
	}
	return filepath.Clean(p), nil
}

// pluginOf finds the plugin a command names, by dir or by a file URI in
// it, and refuses one outside the authority (authorize). A plugin it
// returns is marked as commanded: the user acted on it.
func (s *Server) pluginOf(args runToolArgs) (*pluginState, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ps *pluginState
	switch {
	case args.Dir != "":
		dir, err := commandPath("dir", args.Dir)
		if err != nil {
			return nil, err
		}
		if err := s.authorize(dir); err != nil {
			return nil, err
		}
		m := absIn(dir, checker.ManifestName)
		if _, open := s.docs[m]; !open && !fileExists(m) {
			return nil, invalidParams("no plugin.json in %s", args.Dir)
		}
		ps = s.pluginFor(m)
		if args.URI != "" {
			// A file named beside the plugin must be inside too.
			path, err := commandPath("uri", args.URI)
			if err != nil {
				return nil, err
			}
			if err := s.authorize(filepath.Dir(path)); err != nil {
				return nil, err
			}
		}
	case args.URI != "":
		path, err := commandPath("uri", args.URI)
		if err != nil {
			return nil, err
		}
		// The file's folder first: the search for its plugin must not
		// step through a symlink or register a plugin outside.
		if err := s.authorize(filepath.Dir(path)); err != nil {
			return nil, err
		}
		if ps = s.pluginFor(path); ps == nil {
			return nil, invalidParams("%s is not inside a plugin", args.URI)
		}
	default:
		n := 0
		for _, p := range s.plugins {
			ps, n = p, n+1
		}
		if n != 1 {
			return nil, invalidParams("say which plugin: give \"dir\" or \"uri\" (%d plugins open)", n)
		}
	}
	if err := s.authorize(ps.dir); err != nil {
		return nil, err
	}
	ps.commanded = true
	return ps, nil
}
