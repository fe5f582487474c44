package broker_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// Parallel calls reach the broker in whatever order their goroutines run;
// the audit lists them in the order the tool made them (Request.Seq).
func TestAuditInCallOrder(t *testing.T) {
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: &recordingProvider{}})
	for _, c := range []struct {
		seq  int
		path string
	}{{3, "c"}, {1, "a"}, {2, "b"}} {
		if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/" + c.path, Seq: c.seq}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, e := range b.Audit() {
		got = append(got, e.URL)
	}
	if want := []string{"https://a.org/a", "https://a.org/b", "https://a.org/c"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("audit %q, want %q", got, want)
	}
}
