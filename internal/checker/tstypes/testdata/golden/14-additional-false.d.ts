// Generated from testdata/schemas/14-additional-false.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  q: string;
};
