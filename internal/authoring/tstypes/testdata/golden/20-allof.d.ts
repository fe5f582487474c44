// Generated from testdata/schemas/20-allof.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  id: string;
} & {
  note?: string;
};
