// Generated from testdata/schemas/10-nested-objects.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  address: {
    geo?: {
      lat: number;
      lon: number;
    };
    street: string;
  };
};
