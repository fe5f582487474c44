// Generated from testdata/schemas/24-required-without-property.json by TestGolden (go test ./analysis/tstypes -update).
export type Input = {
  a: string;
  b: unknown;
};
