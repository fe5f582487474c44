// Package review builds the install review card of a plugin: what the
// installer shows before a person approves it, pinned to the bytes of the
// version directory by its source-tree hash.
//
// The source-tree hash is the sha256 of the sorted lines
//
//	<sha256 hex of the file's bytes>  <slash path relative to the directory>\n
//
// over every regular file of the directory, exactly as sha256sum prints
// them. It is reproducible with coreutils (LC_ALL=C sorts bytes):
//
//	cd DIR && find . -type f -printf '%P\0' | xargs -0 sha256sum | LC_ALL=C sort | sha256sum
//
// A symlink anywhere in the tree is an error naming it: what the card
// approves must be the bytes in the directory, not what a link points to.
// Other non-regular files (sockets, devices, pipes) are refused the same way.
package review

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
)

// TreeHash returns the source-tree hash of dir as 64 hex digits.
func TreeHash(dir string) (string, error) {
	lines, err := TreeLines(dir)
	if err != nil {
		return "", err
	}
	return HashLines(lines), nil
}

// TreeLines returns the sorted sha256sum lines the hash is taken over
// (each ends in "\n").
func TreeLines(dir string) ([]string, error) {
	files, err := TreeFiles(dir, nil, nil)
	if err != nil {
		return nil, err
	}
	return SumLines(files), nil
}

// TreeFiles walks dir (refusing symlinks and other non-regular files) and
// returns every regular file's sha256 hex by slash path. read reads a
// file's bytes by absolute path (nil: the disk; an editor passes its
// unsaved buffers); skip leaves a relative path out (nil: none).
func TreeFiles(dir string, read func(string) ([]byte, error), skip func(rel string) bool) (map[string]string, error) {
	sums := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil {
			return rerr
		}
		rel = filepath.ToSlash(rel)
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			if p == dir {
				return nil // the directory argument itself may be a link to it
			}
			target, _ := os.Readlink(p)
			return fmt.Errorf("%s is a symlink (to %s): a plugin directory must hold its files, not links", rel, target)
		case d.IsDir():
			return nil
		case !t.IsRegular():
			return fmt.Errorf("%s is not a regular file (%s)", rel, t)
		}
		if skip != nil && skip(rel) {
			return nil
		}
		var sum string
		var err2 error
		if read != nil {
			var b []byte
			if b, err2 = read(p); err2 == nil {
				h := sha256.Sum256(b)
				sum = hex.EncodeToString(h[:])
			}
		} else {
			sum, err2 = fileSum(p)
		}
		if err2 != nil {
			return err2
		}
		sums[rel] = sum
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// SumLines renders TreeFiles as sorted sha256sum lines.
func SumLines(files map[string]string) []string {
	lines := make([]string, 0, len(files))
	for rel, sum := range files {
		lines = append(lines, sumLine(sum, rel))
	}
	sort.Strings(lines) // byte order, as LC_ALL=C sort
	return lines
}

// HashLines is the sha256 hex of the concatenated lines.
func HashLines(lines []string) string {
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func fileSum(p string) (string, error) {
	// A file swapped for a FIFO or a device after the walk is refused
	// here, not waited on.
	f, _, err := checker.OpenRegular(p, checker.MaxFileSize)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sumLine prints one line as GNU sha256sum does: a name holding a
// backslash, a newline or a carriage return is escaped (\\, \n, \r) and the
// line starts with a backslash.
func sumLine(sum, name string) string {
	if strings.ContainsAny(name, "\\\n\r") {
		esc := strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\r", "\\r").Replace(name)
		return "\\" + sum + "  " + esc + "\n"
	}
	return sum + "  " + name + "\n"
}

// Card is the install review card.
type Card struct {
	Plugin        string         `json:"plugin"`
	Version       string         `json:"version"`
	Description   string         `json:"description,omitempty"`
	Hash          string         `json:"sourceTreeHash"` // "sha256:<hex>"
	FunctionTools []FunctionTool `json:"functionTools"`
	NativeTools   []NativeTool   `json:"nativeTools"`
	// UnboundPages are pages under code/ no tool binds: the minimal grant.
	UnboundPages []UnboundPage `json:"unboundPages"`
	// SincePinned is what changed since plugin.lock.json (set by
	// lockfile.AnnotateCard; nil when not compared).
	SincePinned *SincePinned `json:"sincePinned,omitempty"`
	// Problems are errors that make the manifest unreadable in part
	// (a syntax error): the card may be incomplete.
	Problems []string `json:"problems,omitempty"`
}

// FunctionTool is one sandboxed tool and its reach. A tool inherits
// exactly its plugin's declared capabilities, so every function tool of a
// plugin has the same reach; the card repeats it per tool because that is
// what the approver decides on.
type FunctionTool struct {
	Name        string       `json:"name"`       // as declared
	Registered  string       `json:"registered"` // fn.<name>
	Page        string       `json:"page"`
	Description string       `json:"description,omitempty"`
	Host        []string     `json:"host"`
	Fetch       []FetchReach `json:"fetch"`
	Credentials []CredReach  `json:"credentials"`
	// AgentText is what the agent reads of the tool, line by line.
	AgentText []AgentLine `json:"agentText,omitempty"`
}

// FetchReach is one reachable domain with its effective limits.
type FetchReach struct {
	Domain    string `json:"domain"`
	MaxBytes  int64  `json:"fetchMaxBytes"`
	TimeoutMs int64  `json:"fetchTimeoutMs"`
}

// CredReach is one brokered credential: its name, the header it lands in,
// and the domains it is sent to (all fetch domains when unscoped).
type CredReach struct {
	Name     string   `json:"name"`
	Header   string   `json:"header"`
	Domains  []string `json:"domains"`
	Unscoped bool     `json:"unscoped,omitempty"`
	// Broken says why the credential is never injected (a malformed
	// entry); Domains is then empty.
	Broken string `json:"broken,omitempty"`
}

// NativeTool is one declared native name with what its module says about
// it: what the approver of the full-trust lane decides on.
type NativeTool struct {
	Name        string `json:"name"`
	Module      string `json:"module"`
	Line        string `json:"line"` // native tool <name> (<module>) in the full-trust lane
	Description string `json:"description,omitempty"`
	// Requires are the broker capabilities the tool asks for.
	Requires []string `json:"requires"`
	// NeedsApproval: always (the default), conditional (a function of the
	// arguments), never (false), unknown (not statically readable).
	NeedsApproval string `json:"needsApproval"`
	ModuleHash    string `json:"moduleHash,omitempty"` // sha256:<hex> of the module file
	// Untrusted says why the module's literal is not what runs: code that
	// may change the definition after it (native-tools-mutated). Requires
	// and NeedsApproval then say what is not known.
	Untrusted []string `json:"untrusted,omitempty"`
	// AgentText is what the agent reads of the tool, line by line.
	AgentText []AgentLine `json:"agentText,omitempty"`
}

// Build builds the card of a loaded plugin with the source-tree hash of
// its directory on disk (unsaved editor buffers are not what gets
// installed). When the tree cannot be hashed (a symlink, a FIFO) the card
// is returned without Hash, with the error.
func Build(p *checker.Plugin) (*Card, error) {
	c := FromPlugin(p)
	hash, err := TreeHash(p.Dir)
	if err != nil {
		return c, err
	}
	c.Hash = "sha256:" + hash
	return c, nil
}

// FromPlugin builds the card of a loaded plugin, without the hash.
func FromPlugin(p *checker.Plugin) *Card {
	m := p.Manifest
	c := &Card{FunctionTools: []FunctionTool{}, NativeTools: []NativeTool{}}
	c.Plugin, _ = checker.Str(m.Name)
	c.Version, _ = checker.Str(m.Version)
	if m.Root != nil {
		c.Description, _ = checker.Str(m.Root.Get("description"))
	}
	if e := p.SyntaxError; e != nil {
		pos := p.ManifestFile.Position(e.Offset)
		c.Problems = append(c.Problems, fmt.Sprintf("plugin.json:%d:%d: %s (the card shows what parsed before it)", pos.Line+1, pos.Col+1, e.Message))
	}
	// The reach every function tool inherits: the capability model's
	// (a malformed entry grants nothing and is not on the card).
	reach := capability.FromManifest(m)
	host := append([]string{}, reach.Host...)
	fetch := []FetchReach{}
	for _, f := range reach.Fetch {
		fetch = append(fetch, FetchReach{Domain: f.Domain, MaxBytes: f.MaxBytes, TimeoutMs: f.TimeoutMs})
	}
	creds := []CredReach{}
	for _, cr := range reach.Credentials {
		creds = append(creds, CredReach{Name: cr.Name, Header: cr.Header, Domains: reach.SentTo(cr),
			Unscoped: cr.Unscoped && cr.Broken == "", Broken: cr.Broken})
	}
	for _, t := range m.Tools {
		name, ok := checker.Str(t.Name)
		if !ok {
			continue
		}
		page, _ := checker.Str(t.Page)
		if rel, found := p.ResolvePage(page); found {
			page = rel
		}
		desc, _ := checker.Str(t.Description)
		c.FunctionTools = append(c.FunctionTools, FunctionTool{
			Name: name, Registered: checker.ReservedPrefix + name, Page: page, Description: desc,
			Host: host, Fetch: fetch, Credentials: creds, AgentText: agentLines(checker.ToolAgentText(t)),
		})
	}
	for _, n := range capability.Natives(p) {
		req := n.Requires
		if req == nil {
			req = []string{}
		}
		c.NativeTools = append(c.NativeTools, NativeTool{
			Name: n.Name, Module: n.Module,
			Line:        fmt.Sprintf("native tool %s (%s) in the full-trust lane", n.Name, n.Module),
			Description: n.Description, Requires: req, NeedsApproval: n.NeedsApproval, ModuleHash: n.ModuleHash,
			Untrusted: n.Untrusted, AgentText: agentLines(checker.NativeAgentText(n.Description, n.InputSchemaSource)),
		})
	}
	c.UnboundPages = unboundPages(p)
	return c
}
