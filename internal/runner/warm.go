package runner

import (
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// What a warm run would otherwise redo on every call, kept by content:
// a cached value is only ever read (each run builds its own provider,
// store and broker from it), so no run can see another's state through it.

// fixturesCache keeps parsed fixtures.json files by their exact text:
// parsing and validating the file against its schema was ~0.25 ms of a
// ~2 ms warm run, and the providers' index (canned responses) ~0.06 ms.
// Bounded: it starts over past maxCachedFixtures entries or
// maxCachedFixtureBytes of text.
var fixturesCache struct {
	sync.Mutex
	m     map[string]*fixtureSet
	bytes int
}

// fixtureSet is a parsed fixtures file and the index its providers read;
// each run makes its own provider from the index.
type fixtureSet struct {
	f *broker.Fixtures
	x *broker.FixtureIndex
}

func newFixtureSet(f *broker.Fixtures) *fixtureSet {
	return &fixtureSet{f, broker.NewFixtureIndex(f)}
}

const (
	maxCachedFixtures     = 64
	maxCachedFixtureBytes = 32 << 20
)

// parseFixtures is broker.ParseFixtures through fixturesCache. Errors are
// not kept (a broken file is being edited; parsing it again is cheap).
func parseFixtures(data []byte) (*fixtureSet, error) {
	fixturesCache.Lock()
	set := fixturesCache.m[string(data)]
	fixturesCache.Unlock()
	if set != nil {
		return set, nil
	}
	f, err := fixtures.Parse(data)
	if err != nil {
		return nil, err
	}
	set = newFixtureSet(f)
	fixturesCache.Lock()
	defer fixturesCache.Unlock()
	if fixturesCache.m == nil || len(fixturesCache.m) >= maxCachedFixtures || fixturesCache.bytes+len(data) > maxCachedFixtureBytes {
		fixturesCache.m, fixturesCache.bytes = map[string]*fixtureSet{}, 0
	}
	if _, ok := fixturesCache.m[string(data)]; !ok && len(data) <= maxCachedFixtureBytes {
		fixturesCache.m[string(data)] = set
		fixturesCache.bytes += len(data)
	}
	return set, nil
}
