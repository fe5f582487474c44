package ide

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	lock "github.com/plugin-lsp/plugin-lsp/internal/checker/lockfile"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// PinResult is what plugin.pin answers.
type PinResult struct {
	Pinned bool `json:"pinned"`
	// File is the snapshot written; Changes are the reach changes since
	// the previous snapshot ("+ api.x.org (fetch, tool searchBooks)").
	File    string   `json:"file,omitempty"`
	Changes []string `json:"changes"`
	// Card is the review card that was shown.
	Card any `json:"card,omitempty"`
}

// The actions of the pin question.
const (
	PinAction       = "Pin"
	PinCancelAction = "Cancel"
)

// PinConfirm is the question plugin.pin asks (without "confirm" or an
// approval token) before it writes: PinQuestion's text, Pin or Cancel.
func PinConfirm(p *checker.Plugin, card any) Question {
	return Question{Message: PinQuestion(p, card), Actions: []string{PinAction, PinCancelAction}}
}

// PinQuestion is the confirmation plugin.pin asks before it writes the
// capability snapshot: the review card, led by what changed since the
// pinned snapshot (a client that cuts a long message keeps its start).
func PinQuestion(p *checker.Plugin, card any) string {
	var b strings.Builder
	name, _ := checker.Str(p.Manifest.Name)
	fmt.Fprintf(&b, "%s of %s? Review what you approve:\n\n", PinLabel, text.Visible(name))
	if c, ok := card.(*review.Card); ok {
		// What changed since the pin first: it is what is approved, and a
		// client that cuts a long message keeps its start.
		var rest []string
		for _, sec := range c.Sections() {
			if sec.Name == review.SectionSincePinned {
				b.WriteString(sec.Text + "\n")
			} else {
				rest = append(rest, sec.Text)
			}
		}
		b.WriteString(strings.Join(rest, "\n"))
	} else if card != nil {
		j, _ := json.MarshalIndent(card, "", "  ")
		b.Write(j)
	}
	return b.String()
}

// CardAnswer is what plugin.reviewCard answers: the card model (as
// `review --format json` writes it) with its Markdown rendering (the whole
// card, and each section by name) and, when token is set, the approval
// token plugin.pin takes. A card that is not a *review.Card (a test's)
// answers as it marshals.
func CardAnswer(card any, token string) (json.RawMessage, error) {
	raw, err := json.Marshal(card)
	c, ok := card.(*review.Card)
	if err != nil || !ok {
		return raw, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	m["markdown"], _ = json.Marshal(c.Markdown())
	m["sections"], _ = json.Marshal(c.Sections())
	if token != "" {
		m["approval"], _ = json.Marshal(token)
	}
	return json.Marshal(m)
}

// PinApprovals are the issued, unused approval tokens of plugin.pin: per
// plugin directory, the newest card shown for approval and the snapshot
// hash of the files it was built from. Callers serialise access.
type PinApprovals map[string]pinApproval

type pinApproval struct {
	token, reviewed string
}

// MaxPinApprovals bounds the tokens kept (one per plugin directory).
const MaxPinApprovals = 64

// Issue makes the approval token of the card just built for dir (of the
// files whose hash is reviewed), replacing any earlier one of dir: only
// the newest card can be approved.
func (a PinApprovals) Issue(dir, reviewed string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	if _, ok := a[dir]; !ok && len(a) >= MaxPinApprovals {
		for k := range a {
			delete(a, k) // the oldest is not known; any one goes
			break
		}
	}
	a[dir] = pinApproval{token: token, reviewed: reviewed}
	return token
}

// Take uses up dir's approval token: the reviewed hash, and whether token
// was it. A wrong token uses it up too.
func (a PinApprovals) Take(dir, token string) (string, bool) {
	p, ok := a[dir]
	delete(a, dir)
	if !ok || subtle.ConstantTimeCompare([]byte(p.token), []byte(token)) != 1 {
		return "", false
	}
	return p.reviewed, true
}

// PinApprovalRefused is why plugin.pin with a token that is not dir's
// last one wrote nothing.
func PinApprovalRefused(dir string) *Failure {
	return failf(FailInvalid, "%s: the approval is not that of the last review card shown for %s (used already, replaced by a newer card, or never issued): nothing was pinned; open the review again", CommandPin, text.Visible(dir))
}

// PinWritten is what plugin.pin answers once the snapshot of the plugin
// in dir was written (out and err are lockfile.PinReviewed's): res
// pinned, with the snapshot's file and the reach changes since the
// previous snapshot, a line each ("+ api.x.org (fetch, tool searchBooks)");
// or why nothing was pinned: the plugin changed on disk since the
// approved card is the request's failure, any other the server's.
func PinWritten(res PinResult, dir string, out *lock.PinResult, err error) (PinResult, *Failure) {
	if errors.Is(err, lock.ErrChangedSinceReview) {
		return res, failf(FailInvalid, "%s: %v", CommandPin, err)
	}
	if err != nil {
		return res, failf(FailInternal, "%s: %v", CommandPin, err)
	}
	res.Pinned, res.File = true, filepath.Join(dir, lock.FileName)
	if res.Changes == nil {
		res.Changes = []string{}
	}
	for _, c := range out.Changes {
		res.Changes = append(res.Changes, c.Line())
	}
	return res, nil
}

// DiskUnloadable is the failure of command (plugin.pin, plugin.reviewCard
// for approval) when the plugin on disk, what would be pinned, does not
// load: the request's.
func DiskUnloadable(command string, err error) *Failure {
	return failf(FailInvalid, "%s: %v", command, err)
}

// CardUnhashable is the failure of plugin.reviewCard for approval when
// the source tree of dir cannot be hashed (the token names the hash).
func CardUnhashable(dir string, err error) *Failure {
	return failf(FailInvalid, "%s: %s: cannot hash the source tree: %v", CommandReviewCard, text.Visible(dir), err)
}

// CardFailed is the failure of building or rendering the review card: the
// server's.
func CardFailed(err error) *Failure {
	return failf(FailInternal, "review card: %v", err)
}
