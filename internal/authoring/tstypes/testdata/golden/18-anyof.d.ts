// Generated from testdata/schemas/18-anyof.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  id: string | number;
};
