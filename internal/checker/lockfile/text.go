package lockfile

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// The text each tool shows the agent is pinned too (docs/agent-text.md):
// a description that changes after approval steers the agent with the
// same reach. checker.ToolAgentText and checker.NativeAgentText are that
// text in canonical form, TextHash its hash; the lock holds both (the
// text so that a change can be shown old beside new).
//
// A lock written before text was pinned has no textHash: its tools'
// text is not yet pinned (snapshot-text-changed says so once, as an
// info), never "changed".

// MaxPinnedText bounds the text the lock holds beside its hash (the hash
// is always of the whole text; a longer text is kept cut, with its
// length).
const MaxPinnedText = 64 << 10

// TextHash is "sha256:<hex>" of an agent text.
func TextHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
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
