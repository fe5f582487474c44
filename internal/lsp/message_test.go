package lsp

import (
	"strings"
	"testing"
)

func TestNoticeHasNoLink(t *testing.T) {
	for _, in := range []string{
		"Send [a message](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)",
		"[x](https://evil.example) and [y](file:///etc/passwd)",
		"nested [[a](b)](command:x)",
	} {
		out := notice(in)
		if strings.Contains(out, "](") {
			t.Errorf("notice(%q) = %q: still a link", in, out)
		}
		if !strings.Contains(out, "command:") && strings.Contains(in, "command:") {
			t.Errorf("notice(%q) = %q: the text is lost", in, out)
		}
	}
	if got := notice("a\x1b[2Kb\nc"); got != `a\x1b[2Kb`+"\nc" {
		t.Errorf("controls: %q", got)
	}
}
