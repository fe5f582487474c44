// Generated from testdata/schemas/04-enum-mixed.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = "auto" | 1 | 2 | null | true;
