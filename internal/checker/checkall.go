package checker

import (
	"fmt"
	"runtime"
	"sync"
)

// Result is one plugin's result, with positions already computed.
type Result struct {
	Dir   string // as shown: the DIR argument joined with the plugin's path below it
	Err   error  // the plugin could not be loaded
	Diags []Located
}

// Located is a diagnostic with 0-based line/UTF-16 column positions.
type Located struct {
	Diagnostic
	Start, End Position
}

// CheckAll loads the plugins and checks each with the rules all,
// concurrently (at most GOMAXPROCS at a time, sharing one analysis cache),
// and returns the results in order; internal/authoring/report prints them.
func CheckAll(dirs []string, cfg *Config, all []*Rule) []Result {
	results := make([]Result, len(dirs))
	cache := NewCache()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(dirs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = CheckOne(dirs[i], cfg, cache, all)
			}
		}()
	}
	for i := range dirs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

// CheckOne loads and checks one plugin; a panic becomes Err.
func CheckOne(dir string, cfg *Config, cache *Cache, all []*Rule) (r Result) {
	r.Dir = dir
	defer func() {
		if e := recover(); e != nil {
			r.Err = fmt.Errorf("internal error (please report this): %v", e)
		}
	}()
	p, err := Load(nil, dir)
	if err != nil {
		r.Err = err
		return r
	}
	for _, d := range Run(p, all, cfg, cache) {
		l := Located{Diagnostic: d}
		if f := p.File(d.File); f != nil {
			l.Start, l.End = f.Position(d.Span.Start), f.Position(d.Span.End)
		}
		r.Diags = append(r.Diags, l)
	}
	return r
}
