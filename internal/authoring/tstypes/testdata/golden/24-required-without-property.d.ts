// Generated from testdata/schemas/24-required-without-property.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  a: string;
  b: unknown;
};
