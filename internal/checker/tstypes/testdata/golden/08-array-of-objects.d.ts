// Generated from testdata/schemas/08-array-of-objects.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  items: {
    qty: number;
    sku: string;
  }[];
};
