// Generated from testdata/schemas/24-required-without-property.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  a: string;
  b: unknown;
};
