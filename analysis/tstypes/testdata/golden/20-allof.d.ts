// Generated from testdata/schemas/20-allof.json by TestGolden (go test ./analysis/tstypes -update).
export type Input = {
  id: string;
} & {
  note?: string;
};
