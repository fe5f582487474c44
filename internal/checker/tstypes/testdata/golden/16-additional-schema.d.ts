// Generated from testdata/schemas/16-additional-schema.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  default?: number;
  [key: string]: number | undefined;
};
