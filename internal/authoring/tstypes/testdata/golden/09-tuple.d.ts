// Generated from testdata/schemas/09-tuple.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  path?: [string, ...number[]];
  point: [number, number];
};
