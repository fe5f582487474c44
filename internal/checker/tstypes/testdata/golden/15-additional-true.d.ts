// Generated from testdata/schemas/15-additional-true.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  q: string;
  [key: string]: unknown;
};
