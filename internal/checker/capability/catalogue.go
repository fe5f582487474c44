package capability

import (
	_ "embed"
	"encoding/json"
	"sort"
	"strings"
	"sync"
)

// HostMethod is one method of the sandbox host API, from the embedded
// catalogue (hostapi.json): the one list the rules, the runner, the hover
// and completion share.
type HostMethod struct {
	Name      string `json:"name"`  // "collections.get"
	Async     bool   `json:"async"` // returns a promise
	Signature string `json:"signature"`
	Returns   string `json:"returns"`
	Doc       string `json:"doc"`
}

// Object is the global the method hangs on ("http", "collections").
func (m HostMethod) Object() string { o, _, _ := strings.Cut(m.Name, "."); return o }

// Method is the method's own name ("fetch", "get").
func (m HostMethod) Method() string { _, f, _ := strings.Cut(m.Name, "."); return f }

// Markdown documents the method for a hover.
func (m HostMethod) Markdown() string {
	return "`" + m.Signature + "` → " + m.Returns + ". " + m.Doc
}

//go:embed hostapi.json
var hostAPIJSON []byte

var catalogue = sync.OnceValue(func() []HostMethod {
	var ms []HostMethod
	if err := json.Unmarshal(hostAPIJSON, &ms); err != nil {
		panic("capability: hostapi.json: " + err.Error()) // embedded; a test reads it
	}
	return ms
})

// HostMethods returns the host API catalogue in its documented order.
func HostMethods() []HostMethod { return append([]HostMethod(nil), catalogue()...) }

// HostMethodNames returns the catalogue's names, sorted.
func HostMethodNames() []string {
	var out []string
	for _, m := range catalogue() {
		out = append(out, m.Name)
	}
	sort.Strings(out)
	return out
}

// LookupHostMethod returns the catalogue entry of a name like "http.fetch".
func LookupHostMethod(name string) (HostMethod, bool) {
	for _, m := range catalogue() {
		if m.Name == name {
			return m, true
		}
	}
	return HostMethod{}, false
}

// IsHostMethod reports whether obj.method is in the catalogue.
func IsHostMethod(obj, method string) bool {
	_, ok := LookupHostMethod(obj + "." + method)
	return ok
}

// MethodsOf returns the methods of a host object ("collections" → get,
// put, delete, query), in catalogue order.
func MethodsOf(obj string) []string {
	var out []string
	for _, m := range catalogue() {
		if m.Object() == obj {
			out = append(out, m.Method())
		}
	}
	return out
}
