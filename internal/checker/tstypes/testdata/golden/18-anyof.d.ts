// Generated from testdata/schemas/18-anyof.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  id: string | number;
};
