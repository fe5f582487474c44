// Generated from testdata/schemas/25-untyped-items.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = unknown[];
