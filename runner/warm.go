package runner

import (
	"sync"

	"github.com/plugin-lsp/plugin-lsp/runner/broker"
)

// What a warm run would otherwise redo on every call, kept by content:
// a cached value is only ever read (each run builds its own provider,
// store and broker from it), so no run can see another's state through it.

// fixturesCache keeps parsed fixtures.json files by their exact text:
// parsing and validating the file against its schema was ~0.25 ms of a
// ~2 ms warm run. Bounded: it starts over past maxCachedFixtures entries
// or maxCachedFixtureBytes of text.
var fixturesCache struct {
	sync.Mutex
	m     map[string]*broker.Fixtures
	bytes int
	// index: the fixture providers' part of each cached file, made once
	// (canned responses: ~0.06 ms a run); each run's provider is new.
	index map[*broker.Fixtures]*broker.FixtureIndex
}

const (
	maxCachedFixtures     = 64
	maxCachedFixtureBytes = 32 << 20
)

// parseFixtures is broker.ParseFixtures through fixturesCache. Errors are
// not kept (a broken file is being edited; parsing it again is cheap).
func parseFixtures(data []byte) (*broker.Fixtures, error) {
	fixturesCache.Lock()
	f := fixturesCache.m[string(data)]
	fixturesCache.Unlock()
	if f != nil {
		return f, nil
	}
	f, err := broker.ParseFixtures(data)
	if err != nil {
		return nil, err
	}
	fixturesCache.Lock()
	defer fixturesCache.Unlock()
	if fixturesCache.m == nil || len(fixturesCache.m) >= maxCachedFixtures || fixturesCache.bytes+len(data) > maxCachedFixtureBytes {
		fixturesCache.m, fixturesCache.bytes = map[string]*broker.Fixtures{}, 0
		fixturesCache.index = map[*broker.Fixtures]*broker.FixtureIndex{}
	}
	if _, ok := fixturesCache.m[string(data)]; !ok && len(data) <= maxCachedFixtureBytes {
		fixturesCache.m[string(data)] = f
		fixturesCache.index[f] = broker.NewFixtureIndex(f)
		fixturesCache.bytes += len(data)
	}
	return f, nil
}

// fixtureProvider is a run's fixture provider for f: from f's index when
// f is a cached file, else made from f.
func fixtureProvider(f *broker.Fixtures) broker.Provider {
	fixturesCache.Lock()
	x := fixturesCache.index[f]
	fixturesCache.Unlock()
	if x != nil {
		return x.Provider()
	}
	return broker.NewFixtureProvider(f)
}
