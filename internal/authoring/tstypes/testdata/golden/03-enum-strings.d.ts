// Generated from testdata/schemas/03-enum-strings.json by TestGolden (go test ./internal/authoring/tstypes -update).
export type Input = {
  unit: "metric" | "imperial";
};
