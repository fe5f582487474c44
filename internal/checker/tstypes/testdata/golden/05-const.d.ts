// Generated from testdata/schemas/05-const.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  kind: "search";
  version: 2;
};
