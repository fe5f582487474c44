package ide

import (
	"fmt"
	"slices"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	checkernative "github.com/plugin-lsp/plugin-lsp/internal/checker/native"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/testcase"
)

// The approval of a native run: a native tool runs in Node.js with full
// authority on the author's machine, so the editor asks first
// (window/showMessageRequest), once per module's bytes in a session, for
// plugin.runTool and for the native cases of plugin.runTests alike.

// Question is what the server asks before an action with consequences:
// the message and the actions offered, the first of which confirms.
type Question struct {
	Message string
	Actions []string
}

// Confirmed reports whether answer (the title of the action picked)
// confirms. A dismissed question has no answer, which confirms nothing.
func (q Question) Confirmed(answer string) bool {
	return len(q.Actions) > 0 && answer == q.Actions[0]
}

// The actions of the native approval question.
const (
	NativeRunAction    = "Run"
	NativeCancelAction = "Cancel"
)

// NativeApproval is what one approval question is about: tools of one
// native module, and the module's bytes as they will run.
type NativeApproval struct {
	Tools  []string
	Module string // plugin-relative, cleaned
	// ModuleHash is "sha256:<hex>" of the module on disk (Node imports the
	// file, not the editor's text); "" when it cannot be read, and then the
	// question is asked every time.
	ModuleHash string
}

// ApprovalOf is the approval a run of native tool nt needs, with the hash
// of the module's bytes on disk.
func ApprovalOf(p *checker.Plugin, nt NativeTool) NativeApproval {
	a := NativeApproval{Tools: []string{nt.Name}, Module: nt.Module}
	if text, err := checker.ReadPluginFile(checker.OSFS{}, p.Dir, nt.Module); err == nil { // no symlink out
		a.ModuleHash = checkernative.ModuleHash(text)
	}
	return a
}

// TestApprovals are the approvals the native cases among cases need: one
// per module, in the order of the cases, naming the module's tools that
// the cases run.
func TestApprovals(p *checker.Plugin, cases []*testcase.Case) []NativeApproval {
	var out []NativeApproval
	at := map[string]int{}
	for _, c := range cases {
		nt, ok := NativeOf(p, c.Tool)
		if !ok {
			continue
		}
		i, seen := at[nt.Module]
		if !seen {
			at[nt.Module] = len(out)
			out = append(out, ApprovalOf(p, nt))
			continue
		}
		if !slices.Contains(out[i].Tools, nt.Name) {
			out[i].Tools = append(out[i].Tools, nt.Name)
		}
	}
	return out
}

// Question is the approval question: "Run tg.sendMessage
// (native/telegram.js, sha256:…) with full authority on this machine?",
// Run or Cancel.
func (a NativeApproval) Question() Question {
	hash := a.ModuleHash
	if hash == "" {
		hash = "unreadable"
	}
	return Question{
		Message: fmt.Sprintf("Run %s (%s, %s) with full authority on this machine?", strings.Join(a.Tools, ", "), a.Module, hash),
		Actions: []string{NativeRunAction, NativeCancelAction},
	}
}

// NativeTrust is the session's memory of approvals: the module hashes
// approved. The zero value remembers nothing yet; callers serialise
// access.
type NativeTrust map[string]bool

// Approved reports whether a was approved before in this session (the
// same module bytes).
func (t NativeTrust) Approved(a NativeApproval) bool {
	return a.ModuleHash != "" && t[a.ModuleHash]
}

// Remember keeps an approval of a for the session; an unreadable module
// (no hash) is not remembered: it is asked about every time.
func (t NativeTrust) Remember(a NativeApproval) {
	if a.ModuleHash != "" {
		t[a.ModuleHash] = true
	}
}

// NativeDeclined is the answer of a plugin.runTool whose approval was
// declined: nothing ran.
func NativeDeclined(tool string) *Failure {
	return failf(FailDeclined, "%s was not run: running a native tool with full authority was declined", tool)
}

// NativeTestSkip decides each native case of a test run: "" runs it (its
// module is among approved, by path), else the reason it is skipped.
func NativeTestSkip(p *checker.Plugin, approved map[string]bool) func(tool string) string {
	return func(tool string) string {
		nt, ok := NativeOf(p, tool)
		if ok && approved[nt.Module] {
			return ""
		}
		return fmt.Sprintf("%s is a native tool (%s): running it with full authority on this machine was not approved", tool, nt.Module)
	}
}
