// Generated from testdata/schemas/23-empty-and-true.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  also?: unknown;
  anything: unknown;
  nothing?: never;
};
