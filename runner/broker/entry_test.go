package broker_test

import (
	"reflect"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/runner"
	"github.com/plugin-lsp/plugin-lsp/runner/broker"
)

// Entry must stay field-for-field identical to runner.FetchEntry (names,
// types, JSON tags, order) so that runner can alias it.
func TestEntryMatchesRunnerFetchEntry(t *testing.T) {
	a, b := reflect.TypeOf(broker.Entry{}), reflect.TypeOf(runner.FetchEntry{})
	if a == b {
		return // already an alias
	}
	if a.NumField() != b.NumField() {
		t.Fatalf("broker.Entry has %d fields, runner.FetchEntry %d", a.NumField(), b.NumField())
	}
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		if fa.Name != fb.Name || fa.Type != fb.Type || fa.Tag != fb.Tag {
			t.Errorf("field %d: broker %s %s %q, runner %s %s %q", i, fa.Name, fa.Type, fa.Tag, fb.Name, fb.Type, fb.Tag)
		}
	}
}
