package tstypes

import (
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
)

// Every collections.* method of the capability catalogue has a
// declaration in the generated types (a new method would otherwise be
// granted but untyped).
func TestCatalogueMethodsAreDeclared(t *testing.T) {
	for _, m := range capability.MethodsOf("collections") {
		if _, ok := collectionDecls[m]; !ok {
			t.Errorf("collections.%s has no TypeScript declaration", m)
		}
	}
}
