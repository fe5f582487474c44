// Generated from testdata/schemas/02-required-optional.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  edition?: number;
  isbn: string;
  signed?: boolean;
};
