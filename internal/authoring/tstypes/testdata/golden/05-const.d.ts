// Generated from testdata/schemas/05-const.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  kind: "search";
  version: 2;
};
