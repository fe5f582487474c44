// Generated from testdata/schemas/07-array-of-strings.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  tags: string[];
};
