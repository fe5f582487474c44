// Generated from testdata/schemas/20-allof.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  id: string;
} & {
  note?: string;
};
