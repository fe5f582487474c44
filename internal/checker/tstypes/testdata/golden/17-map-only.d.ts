// Generated from testdata/schemas/17-map-only.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  [key: string]: string;
};
