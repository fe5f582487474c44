package runner

import (
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// What a warm run would otherwise redo on every call, kept by content:
// a cached value is only ever read (each run builds its own provider,
// store and broker from it), so no run can see another's state through it.

// manifestFacts is what a run derives from its plugin's manifest alone:
// whether a key is written twice, and the reach the manifest grants.
type manifestFacts struct {
	dup   *record.RunError // nil: no duplicate key (copied before use: CapRecord edits a record's error)
	reach *capability.Reach
}

// manifestCache keeps manifestFacts by the checker's manifest file: a
// loaded Plugin's File is immutable and a changed file is a new File, so
// a change invalidates by itself. Bounded: it starts over past
// maxCachedManifests entries.
var manifestCache struct {
	sync.Mutex
	m map[*checker.File]*manifestFacts
}

const maxCachedManifests = 64

// factsOf returns the manifest facts of p, made once per manifest file.
func factsOf(p *checker.Plugin) *manifestFacts {
	mf := p.ManifestFile
	if mf != nil {
		manifestCache.Lock()
		f := manifestCache.m[mf]
		manifestCache.Unlock()
		if f != nil {
			return f
		}
	}
	f := &manifestFacts{reach: capability.FromManifest(p.Manifest)}
	if ds := jsonpos.DuplicateKeys(p.Manifest.Root); len(ds) > 0 && mf != nil {
		e := jsonpos.NewDuplicateKeyError(mf.Text, ds[0])
		f.dup = runErr("ManifestError", e.Message(), checker.ManifestName, e.DupLine, e.DupCol)
	}
	if mf == nil {
		return f
	}
	manifestCache.Lock()
	defer manifestCache.Unlock()
	if manifestCache.m == nil || len(manifestCache.m) >= maxCachedManifests {
		manifestCache.m = map[*checker.File]*manifestFacts{}
	}
	manifestCache.m[mf] = f
	return f
}

// fixturesCache keeps parsed fixtures.json files by their exact text:
// parsing and validating the file against its schema was ~0.25 ms of a
// ~2 ms warm run, and the providers' index (canned responses) ~0.06 ms.
// Bounded: it starts over past maxCachedFixtures entries or
// maxCachedFixtureBytes of text.
var fixturesCache struct {
	sync.Mutex
	m     map[string]*fixtureSet
	bytes int
	// last is the text the last lookup was given (a loaded Plugin's
	// fixtures.json, the same slice run after run) and its set.
	last *lastFixtures
}

type lastFixtures struct {
	data []byte
	set  *fixtureSet
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
	if l := fixturesCache.last; l != nil && len(data) > 0 && len(l.data) == len(data) && &l.data[0] == &data[0] {
		set := fixturesCache.last.set // the same file's text as the last run's: no hashing of it
		fixturesCache.Unlock()
		return set, nil
	}
	set := fixturesCache.m[string(data)]
	fixturesCache.Unlock()
	if set != nil {
		fixturesCache.Lock()
		fixturesCache.last = &lastFixtures{data, set}
		fixturesCache.Unlock()
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
	fixturesCache.last = &lastFixtures{data, set}
	return set, nil
}
