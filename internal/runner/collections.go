package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// collections is the in-memory store behind collections.*: one per run,
// seeded from fixtures.json "collections" ({ "<name>": { "<key>": value } }),
// so every run starts from the same state.
//
//	collections.get(name, key)        → the value, or null
//	collections.put(name, key, value) → true
//	collections.delete(name, key)     → whether the key existed
//	collections.query(name, where?)   → [{ key, value }] sorted by key; where
//	                                    keeps values whose top-level fields equal
//	                                    where's fields (JSON equality); where.limit caps the count
type collections struct {
	mu   sync.Mutex
	data map[string]map[string]json.RawMessage
	size int64
}

// MaxCollectionBytes caps what a run may store (keys and values).
const MaxCollectionBytes = 8 << 20

func newCollections(seed map[string]json.RawMessage) *collections {
	c := &collections{data: map[string]map[string]json.RawMessage{}}
	for name, raw := range seed {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		c.data[name] = m
		for k, v := range m {
			c.size += int64(len(k) + len(v))
		}
	}
	return c
}

func (c *collections) method(op string) func(context.Context, []json.RawMessage) (json.RawMessage, error) {
	return func(_ context.Context, args []json.RawMessage) (json.RawMessage, error) {
		str := func(i int, what string) (string, error) {
			var s string
			if i >= len(args) || json.Unmarshal(args[i], &s) != nil || s == "" {
				return "", fmt.Errorf("collections.%s: the %s must be a non-empty string", op, what)
			}
			return s, nil
		}
		name, err := str(0, "collection name")
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		switch op {
		case "get":
			key, err := str(1, "key")
			if err != nil {
				return nil, err
			}
			if v, ok := c.data[name][key]; ok {
				return v, nil
			}
			return json.RawMessage("null"), nil
		case "put":
			key, err := str(1, "key")
			if err != nil {
				return nil, err
			}
			v := json.RawMessage("null")
			if len(args) > 2 {
				v = args[2]
			}
			old := c.data[name][key]
			grow := int64(len(key)+len(v)) - int64(len(old))
			if old != nil {
				grow += int64(len(key))
			}
			if c.size+grow > MaxCollectionBytes {
				return nil, fmt.Errorf("collections.put: the store is capped at %d bytes per run", MaxCollectionBytes)
			}
			if c.data[name] == nil {
				c.data[name] = map[string]json.RawMessage{}
			}
			c.data[name][key] = append(json.RawMessage(nil), v...)
			c.size += grow
			return json.RawMessage("true"), nil
		case "delete":
			key, err := str(1, "key")
			if err != nil {
				return nil, err
			}
			v, ok := c.data[name][key]
			if ok {
				delete(c.data[name], key)
				c.size -= int64(len(key) + len(v))
			}
			return json.Marshal(ok)
		case "query":
			var where map[string]json.RawMessage
			if len(args) > 1 && string(args[1]) != "null" {
				if json.Unmarshal(args[1], &where) != nil {
					return nil, errors.New("collections.query: the filter must be an object")
				}
			}
			limit := -1
			if l, ok := where["limit"]; ok {
				json.Unmarshal(l, &limit)
				delete(where, "limit")
			}
			keys := make([]string, 0, len(c.data[name]))
			for k := range c.data[name] {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			type item struct {
				Key   string          `json:"key"`
				Value json.RawMessage `json:"value"`
			}
			out := []item{}
			for _, k := range keys {
				if limit >= 0 && len(out) >= limit {
					break
				}
				v := c.data[name][k]
				if matches(v, where) {
					out = append(out, item{k, v})
				}
			}
			return json.Marshal(out)
		}
		return nil, fmt.Errorf("collections.%s is not a host method", op)
	}
}

func matches(v json.RawMessage, where map[string]json.RawMessage) bool {
	if len(where) == 0 {
		return true
	}
	var obj map[string]any
	if json.Unmarshal(v, &obj) != nil {
		return false
	}
	for k, want := range where {
		var w any
		json.Unmarshal(want, &w)
		got, ok := obj[k]
		if !ok {
			return false
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(w)
		if string(a) != string(b) {
			return false
		}
	}
	return true
}
