// Generated from testdata/schemas/03-enum-strings.json by TestGolden (go test ./analysis/tstypes -update).
export type Input = {
  unit: "metric" | "imperial";
};
