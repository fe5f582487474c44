// Generated from testdata/schemas/19-oneof-shared.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  isbn: string;
  kind: "isbn";
} | {
  kind: "title";
  title: string;
};
