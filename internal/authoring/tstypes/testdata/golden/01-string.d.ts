// Generated from testdata/schemas/01-string.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = string;
