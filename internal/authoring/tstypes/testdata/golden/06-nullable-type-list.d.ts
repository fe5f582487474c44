// Generated from testdata/schemas/06-nullable-type-list.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  cursor: string | null;
  page?: number | null;
};
