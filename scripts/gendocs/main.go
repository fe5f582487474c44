// Command gendocs prints docs/rules.md, generated from the rules' docs:
//
//	go run ./scripts/gendocs > docs/rules.md
//
// internal/checker/rules' TestDocsUpToDate fails when the file is stale.
package main

import (
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
)

func main() {
	fmt.Print(rules.Markdown())
}
