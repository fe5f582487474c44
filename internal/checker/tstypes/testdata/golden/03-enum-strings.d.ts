// Generated from testdata/schemas/03-enum-strings.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  unit: "metric" | "imperial";
};
