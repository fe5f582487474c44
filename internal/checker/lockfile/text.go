package lockfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// The text each tool shows the agent is pinned too (docs/agent-text.md):
// a description that changes after approval steers the agent with the
// same reach. AgentText is that text in canonical form, TextHash its
// hash; the lock holds both (the text so that a change can be shown old
// beside new).
//
// A lock written before text was pinned has no textHash: its tools'
// text is not yet pinned (snapshot-text-changed says so once, as an
// info), never "changed".

// AgentText is a function tool's agent-facing text: its description, a
// newline, and its input schema as JSON with the keys of every object
// sorted and no whitespace between tokens (so re-indenting plugin.json
// or reordering keys changes nothing); "" for an absent schema.
func AgentText(description string, schema any) string {
	s := ""
	if schema != nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(schema); err == nil { // maps: keys sorted
			s = strings.TrimSuffix(b.String(), "\n")
		}
	}
	return description + "\n" + s
}

// NativeAgentText is a native tool's agent-facing text: its description,
// a newline, and the source of its inputJsonSchema with the whitespace
// and comments outside string literals removed (the module is read, not
// run, so its keys stay in source order).
func NativeAgentText(description, schemaSource string) string {
	return description + "\n" + compactJS(schemaSource)
}

// TextHash is "sha256:<hex>" of an agent text.
func TextHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// functionText is the agent text of a manifest tool.
func functionText(t *checker.Tool) string {
	desc, _ := checker.Str(t.Description)
	var schema any
	if t.InputSchema != nil {
		schema = t.InputSchema.Interface()
	}
	return AgentText(desc, schema)
}

// compactJS drops whitespace and comments outside string and template
// literals.
func compactJS(s string) string {
	var b strings.Builder
	prevWord := false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			b.WriteString(s[i:j])
			i, prevWord = j, false
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += end + 4
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			// Keep one space between two words ("new Date"), none elsewhere.
			if prevWord && j < len(s) && isWordByte(s[j]) {
				b.WriteByte(' ')
			}
			i = j
		default:
			b.WriteByte(c)
			prevWord = isWordByte(c)
			i++
		}
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// TextChange is a tool whose pinned agent text differs from its text now.
type TextChange struct {
	Tool   string // the function tool's name or the native name
	Native bool
	Old    string // the pinned text ("" when the lock holds only the hash)
	New    string
}

// TextChanges compares the tools' agent text with the pin: tools in both
// whose pinned textHash differs (a tool added or removed is a reach
// change, see Diff). unpinned reports a lock that pins no text at all
// (written before text was pinned).
func TextChanges(pinned, cur *Lock) (changes []TextChange, unpinned bool) {
	hashes := 0
	oldF := map[string]FunctionTool{}
	for _, t := range pinned.FunctionTools {
		oldF[t.Name] = t
		if t.TextHash != "" {
			hashes++
		}
	}
	oldN := map[string]NativeTool{}
	for _, n := range pinned.NativeTools {
		oldN[n.Name] = n
		if n.TextHash != "" {
			hashes++
		}
	}
	if hashes == 0 {
		return nil, len(pinned.FunctionTools)+len(pinned.NativeTools) > 0
	}
	for _, t := range cur.FunctionTools {
		if o, ok := oldF[t.Name]; ok && o.TextHash != "" && o.TextHash != t.TextHash {
			changes = append(changes, TextChange{Tool: t.Name, Old: o.Text, New: t.Text})
		}
	}
	for _, n := range cur.NativeTools {
		if o, ok := oldN[n.Name]; ok && o.TextHash != "" && o.TextHash != n.TextHash {
			changes = append(changes, TextChange{Tool: n.Name, Native: true, Old: o.Text, New: n.Text})
		}
	}
	return changes, false
}

// Lines returns the change's text lines side by side: each line of the
// old text that differs, with the new line at the same place ("" where
// one text has fewer lines).
func (c TextChange) Lines() (old, new []string) {
	ol, nl := strings.Split(c.Old, "\n"), strings.Split(c.New, "\n")
	for i := 0; i < max(len(ol), len(nl)); i++ {
		var o, n string
		if i < len(ol) {
			o = ol[i]
		}
		if i < len(nl) {
			n = nl[i]
		}
		if o != n {
			old, new = append(old, o), append(new, n)
		}
	}
	return old, new
}
