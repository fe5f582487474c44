// Generated from testdata/schemas/06-nullable-type-list.json by TestGolden (go test ./analysis/tstypes -update).
export type Input = {
  cursor: string | null;
  page?: number | null;
};
