// Generated from testdata/schemas/06-nullable-type-list.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  cursor: string | null;
  page?: number | null;
};
