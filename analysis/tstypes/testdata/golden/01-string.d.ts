// Generated from testdata/schemas/01-string.json by TestGolden (go test ./analysis/tstypes -update).
export type Input = string;
