// Generated from testdata/schemas/09-tuple.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  path?: [string, ...number[]];
  point: [number, number];
};
