// Package testcase holds the values of tool tests (tests/*.json): a
// test file as read (File, its Cases and Problems) and the outcome of a
// case's run (Result, Status, Failure). It links no engine: the editor's
// answers (internal/ide) read them, internal/runner/tooltest reads the
// files into them and runs them.
package testcase

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/fixtures"
)

// Dir is where a plugin's test files live; SnapshotDir holds the stored
// snapshots, one <file>.snap.json per test file.
const (
	Dir         = "tests"
	SnapshotDir = "tests/__snapshots__"
)

// File is one test file.
type File struct {
	Rel   string // slash path in the plugin ("tests/lookup-book.json")
	Text  []byte
	Tool  string
	Cases []*Case
	// Problems are the file's mistakes (syntax, schema, duplicate names,
	// unknown tools), each on its key or value. A file with problems runs
	// none of its cases.
	Problems []Problem
}

// Problem is a mistake in a test file.
type Problem struct {
	Span    checker.Span
	Message string
}

// Pos is "line:col" (1-based) of a byte offset in the file.
func (f *File) Pos(off int) string { return fixtures.LineCol(f.Text, off) }

// SnapshotRel is the file's snapshot file ("tests/__snapshots__/x.snap.json").
func (f *File) SnapshotRel() string {
	return SnapshotDir + "/" + strings.TrimSuffix(path.Base(f.Rel), ".json") + ".snap.json"
}

// Case is one test case.
type Case struct {
	File           *File
	Index          int
	Name, Tool     string
	Input          json.RawMessage
	Result         json.RawMessage
	ResultContains json.RawMessage
	Snapshot       bool
	Error          *ErrorExpect
	Fetches        []FetchExpect
	HasFetches     bool
	Logs           []LogExpect
	HasLogs        bool
	Fixtures       json.RawMessage
	TimeoutMs      int
	// Native tools: the expected connections and the ctx seeds.
	Connections    []ConnectionExpect
	HasConnections bool
	Ctx            *CtxSeed
	// Span is the case object; NameSpan the value of its "name".
	Span, NameSpan checker.Span
}

// ID is what --run matches and reports show: "<tool>/<name>".
func (c *Case) ID() string { return c.Tool + "/" + c.Name }

// ErrorExpect is a case's "error".
type ErrorExpect struct {
	Name    *string `json:"name,omitempty"`
	Message *string `json:"message,omitempty"`
}

// FetchExpect is one entry of a case's "fetches": nil fields are not
// checked.
type FetchExpect struct {
	Method      *string   `json:"method,omitempty"`
	URL         *string   `json:"url,omitempty"`
	Status      *int      `json:"status,omitempty"`
	Credentials *[]string `json:"credentials,omitempty"`
	Refused     *string   `json:"refused,omitempty"`
}

// ConnectionExpect is one entry of a native case's "connections": nil
// fields are not checked.
type ConnectionExpect struct {
	Protocol *string `json:"protocol,omitempty"`
	Host     *string `json:"host,omitempty"`
	Port     *int    `json:"port,omitempty"`
	Refused  *string `json:"refused,omitempty"`
}

// CtxSeed is a native case's "ctx": what ctx starts with.
type CtxSeed struct {
	Secrets     map[string]string          `json:"secrets,omitempty"`
	Storage     map[string]json.RawMessage `json:"storage,omitempty"`
	Collections map[string]json.RawMessage `json:"collections,omitempty"`
}

// LogExpect is one entry of a case's "logs".
type LogExpect struct {
	Level   *string `json:"level,omitempty"`
	Message *string `json:"message,omitempty"`
}
