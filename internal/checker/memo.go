package checker

import (
	"sync"
	"sync/atomic"
)

// memo holds results computed at most once per key, for a Plugin that
// concurrent callers share (a check, hover, the runner's compiler and
// esbuild's loaders): the first caller of a key computes it, concurrent
// callers of the same key wait for that result, and other keys do not
// wait. The zero memo is ready to use.
type memo[V any] struct {
	mu sync.Mutex
	m  map[string]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	done atomic.Bool
	val  V
	err  error
}

func (m *memo[V]) entry(key string) *memoEntry[V] {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]*memoEntry[V]{}
	}
	e := m.m[key]
	if e == nil {
		e = &memoEntry[V]{}
		m.m[key] = e
	}
	return e
}

// get returns key's result, computing it on the first call.
func (m *memo[V]) get(key string, compute func() (V, error)) (V, error) {
	e := m.entry(key)
	e.once.Do(func() {
		e.val, e.err = compute()
		e.done.Store(true)
	})
	return e.val, e.err
}

// peek returns key's result if it has been computed, without computing
// or waiting.
func (m *memo[V]) peek(key string) (v V, err error, ok bool) {
	m.mu.Lock()
	e := m.m[key]
	m.mu.Unlock()
	if e == nil || !e.done.Load() {
		return v, nil, false
	}
	return e.val, e.err, true
}

// keys are the keys whose results have been computed.
func (m *memo[V]) keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, 0, len(m.m))
	for k, e := range m.m {
		if e.done.Load() {
			out = append(out, k)
		}
	}
	return out
}
