package runner

import (
	"encoding/json"
	"fmt"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// Caps of the run record (docs/limits.md). Every string a page controls is
// bounded, and so is the whole record: result (sandbox.DefaultResultCapBytes),
// logs (sandbox.DefaultLogCapBytes, entries counted with their overhead),
// error and audit entries (below), all under MaxRecordBytes.
const (
	MaxErrorNameBytes    = 256
	MaxErrorMessageBytes = 16 << 10
	MaxErrorStackBytes   = 16 << 10
	// MaxAuditFieldBytes bounds each string of a fetch audit entry (the URL
	// is already cut at broker.MaxURLBytes).
	MaxAuditFieldBytes = broker.MaxURLBytes + 64
	// MaxRecordBytes is the ceiling of a whole record as JSON.
	MaxRecordBytes = 8 << 20
	// MaxSecretEntries bounds the dev secret audit (one entry per
	// credential): a manifest of many thousand credentials keeps the first
	// ones and the count of the others (Record.SecretsOmitted).
	MaxSecretEntries = 256
)

// CapRecord applies the caps to a finished record. A record still over
// MaxRecordBytes (a result that redaction made longer) loses its result.
// CapRecord bounds a record's fields and its whole size (the native lane
// caps its records the same way).
func CapRecord(rec *record.Record) {
	if e := rec.Error; e != nil {
		e.Name = checker.Elide(e.Name, MaxErrorNameBytes)
		e.Message = checker.Elide(e.Message, MaxErrorMessageBytes)
		e.Stack = checker.Elide(e.Stack, MaxErrorStackBytes)
		e.File = checker.Elide(e.File, MaxErrorNameBytes)
	}
	for i := range rec.Fetches {
		f := &rec.Fetches[i]
		f.URL = checker.Elide(f.URL, MaxAuditFieldBytes)
		f.Error = checker.Elide(f.Error, MaxAuditFieldBytes)
		f.Host = checker.Elide(f.Host, MaxAuditFieldBytes)
		f.Method = checker.Elide(f.Method, 64)
	}
	if n := len(rec.Secrets); n > MaxSecretEntries {
		rec.Secrets, rec.SecretsOmitted = rec.Secrets[:MaxSecretEntries], n-MaxSecretEntries
	}
	for i := range rec.Secrets {
		s := &rec.Secrets[i]
		s.Name = checker.Elide(s.Name, MaxErrorNameBytes)
		s.Env = checker.Elide(s.Env, MaxErrorNameBytes)
		s.Reason = checker.Elide(s.Reason, MaxAuditFieldBytes)
	}
	size := len(rec.Result)
	for _, l := range rec.Logs {
		size += len(l.Message) + sandbox.LogEntryOverhead
	}
	for _, f := range rec.Fetches {
		size += len(f.URL) + len(f.Error) + len(f.Host) + 256
	}
	for _, s := range rec.Secrets {
		size += len(s.Name) + len(s.Env) + len(s.Reason) + 64
	}
	if rec.Error != nil {
		size += len(rec.Error.Message) + len(rec.Error.Stack) + 512
	}
	if size+4096 <= MaxRecordBytes {
		return
	}
	n := len(rec.Result)
	rec.OK = false
	rec.Result = json.RawMessage("null")
	rec.Error = &record.RunError{Name: "ResultTooLarge", Message: fmt.Sprintf("the result is %d bytes after redaction: the run record is capped at %d bytes", n, MaxRecordBytes)}
}
