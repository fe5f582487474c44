// Generated from testdata/schemas/25-untyped-items.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = unknown[];
