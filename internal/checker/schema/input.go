package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Violation is one way a tool input fails its inputJsonSchema: the JSON
// pointer of the offending value ("" is the whole input) and what is wrong.
type Violation struct {
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// InputSchema is a compiled inputJsonSchema (draft 2020-12 unless the
// schema names another draft in "$schema"). It never loads anything from
// the network or the disk: a $ref must stay inside the schema.
type InputSchema struct {
	compiled *jsonschema.Schema
}

const inputSchemaURL = "plugin-lsp:///inputJsonSchema.json"

// inputCache keeps compiled schemas by their text: a run validates its
// input on every call, and the language server validates examples on
// every keystroke. Bounded: it starts over past 256 entries.
var inputCache struct {
	sync.Mutex
	m map[string]*InputSchema
}

// CompileInput compiles a tool's inputJsonSchema from its JSON text.
func CompileInput(text []byte) (*InputSchema, error) {
	key := string(text)
	inputCache.Lock()
	s := inputCache.m[key]
	inputCache.Unlock()
	if s != nil {
		return s, nil
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		return nil, fmt.Errorf("%s is not loaded: inputJsonSchema must be self-contained", u)
	}
	if err := c.AddResource(inputSchemaURL, bytes.NewReader(text)); err != nil {
		return nil, fmt.Errorf("inputJsonSchema: %s", firstLine(err.Error()))
	}
	cs, err := c.Compile(inputSchemaURL)
	if err != nil {
		return nil, fmt.Errorf("inputJsonSchema does not compile: %s", firstLine(strings.TrimPrefix(err.Error(), "jsonschema: ")))
	}
	s = &InputSchema{compiled: cs}
	inputCache.Lock()
	if inputCache.m == nil || len(inputCache.m) >= 256 {
		inputCache.m = map[string]*InputSchema{}
	}
	inputCache.m[key] = s
	inputCache.Unlock()
	return s, nil
}

// Validate checks one input (JSON text; empty is null). It returns every
// violation, sorted by pointer; none means the input is valid. A text that
// is not JSON is one violation at "".
func (s *InputSchema) Validate(input []byte) []Violation {
	if len(bytes.TrimSpace(input)) == 0 {
		input = []byte("null")
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return []Violation{{Pointer: "", Message: "the input is not JSON"}}
	}
	err := s.compiled.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		if err != nil {
			return []Violation{{Pointer: "", Message: firstLine(err.Error())}}
		}
		return nil
	}
	var out []Violation
	collect(ve, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return slices.Compact(out) // several branches may say the same thing
}

// collect keeps the leaves of the error tree (anyOf/oneOf are leaves: their
// branches' errors would only confuse). A missing required property is
// reported at the property's own pointer.
func collect(ve *jsonschema.ValidationError, out *[]Violation) {
	kw := lastToken(ve.KeywordLocation)
	if len(ve.Causes) > 0 && kw != "anyOf" && kw != "oneOf" {
		for _, c := range ve.Causes {
			collect(c, out)
		}
		return
	}
	msg := strings.TrimSpace(ve.Message)
	ptr := plainPointer(ve.InstanceLocation)
	if kw == "required" {
		// "missing properties: 'city', 'units'"
		if _, list, ok := strings.Cut(msg, ": "); ok {
			if names := quotedNames(list); len(names) > 0 {
				for _, name := range names {
					*out = append(*out, Violation{Pointer: ptr + "/" + escapePointer(name), Message: "required property is missing"})
				}
				return
			}
		}
	}
	*out = append(*out, Violation{Pointer: ptr, Message: msg})
}

// plainPointer undoes the library's URL-escaping of pointer tokens: a
// JSON pointer (RFC 6901) escapes only "~" and "/".
func plainPointer(p string) string {
	tokens := strings.Split(p, "/")
	for i, t := range tokens {
		if u, err := url.PathUnescape(t); err == nil {
			tokens[i] = u
		}
	}
	return strings.Join(tokens, "/")
}

// quotedNames reads the library's list of single-quoted names ('a', 'b\'c'),
// each written as Go's %q with double quotes unescaped and single quotes
// escaped.
func quotedNames(list string) []string {
	var out []string
	for i := 0; i < len(list); i++ {
		if list[i] != '\'' {
			continue
		}
		j := i + 1
		for j < len(list) && list[j] != '\'' {
			if list[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(list) {
			return nil
		}
		inner := strings.ReplaceAll(list[i+1:j], `\'`, `'`)
		inner = strings.ReplaceAll(inner, `"`, `\"`)
		name, err := strconv.Unquote(`"` + inner + `"`)
		if err != nil {
			return nil
		}
		out = append(out, name)
		i = j
	}
	return out
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Summary is one line naming every violation, for error messages:
// "/city: required property is missing; /days: expected integer, but got string".
func Summary(vs []Violation) string {
	parts := make([]string, 0, len(vs))
	for _, v := range vs {
		p := v.Pointer
		if p == "" {
			p = "(the input)"
		}
		parts = append(parts, p+": "+v.Message)
	}
	return strings.Join(parts, "; ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
