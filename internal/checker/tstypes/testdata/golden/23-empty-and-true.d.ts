// Generated from testdata/schemas/23-empty-and-true.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  also?: unknown;
  anything: unknown;
  nothing?: never;
};
