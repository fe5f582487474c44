package runner

import (
	"encoding/json"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// What exploration (internal/runner/explore) shares with a run: the same
// fixtures reader, the same in-memory collections and the same shape of
// a fetch's answer, so an explored run sees what `plugin-lsp run` would.

// PluginFixtures reads the plugin's fixtures.json as a run does (none: an
// empty set).
func PluginFixtures(p *checker.Plugin) (*broker.Fixtures, *broker.FixtureIndex, error) {
	set, err := loadFixtures(p, "")
	if err != nil {
		return nil, nil, err
	}
	return set.f, set.x, nil
}

// CollectionsMethods are the granted collections.* methods of reach over
// a fresh in-memory store seeded from the fixtures (nothing persisted).
func CollectionsMethods(reach *capability.Reach, seed map[string]json.RawMessage) []sandbox.Method {
	store := newCollections(seed)
	var out []sandbox.Method
	for _, name := range reach.Host {
		m, _ := capability.LookupHostMethod(name)
		if m.Object() == "collections" {
			out = append(out, sandbox.Method{Name: name, Async: m.Async, Fn: store.method(m.Method())})
		}
	}
	return out
}

// FetchResult is the answer of http.fetch the page's Response is made
// from ({status, headers, body, url}).
func FetchResult(status int, headers map[string]string, url string, body []byte) (json.RawMessage, error) {
	return fetchResultJSON(status, headers, url, body)
}
