// Generated from testdata/schemas/01-string.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = string;
