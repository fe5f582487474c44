// Generated from testdata/schemas/07-array-of-strings.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  tags: string[];
};
