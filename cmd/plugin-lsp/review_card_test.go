package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/authoring/review"
	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// The card the language server shows (plugin.reviewCard, the pin review
// view) is the card plugin-lsp review prints, problems from the checker
// included, for every plugin under testdata/plugins and the example: the
// editor's Markdown then says what the terminal says (internal/authoring/review's
// TestMarkdownCardEqualsTextCard).
func TestServerCardIsTheCLICard(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "plugins", "*", "plugin.json"))
	dirs = append(dirs, filepath.Join("..", "..", "testdata", "example", "books", "plugin.json"))
	withErrors := 0
	for _, m := range dirs {
		dir := filepath.Dir(m)
		var out, errb bytes.Buffer
		if code := cmdReview([]string{dir}, &out, &errb); code == 2 || out.Len() == 0 {
			continue // no card: not a plugin, or a tree that cannot be hashed (the CLI refuses, the server shows why)
		}
		p, err := checker.Load(nil, dir)
		if err != nil {
			t.Fatal(err)
		}
		c, err := reviewCard(p)
		if err != nil {
			t.Fatal(err)
		}
		card := c.(*review.Card)
		if len(card.Problems) > 0 {
			withErrors++
		}
		if got := card.Text(); got != out.String() {
			t.Errorf("%s: the server's card differs from plugin-lsp review:\nserver:\n%s\nCLI:\n%s", dir, got, out.String())
		}
	}
	if withErrors < 10 {
		t.Errorf("only %d plugins with errors: the comparison does not cover the problems", withErrors)
	}
	if len(dirs) < 50 {
		t.Fatalf("%d plugins found", len(dirs))
	}
}
