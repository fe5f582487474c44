// Generated from testdata/schemas/13-definitions-draft7.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  money: Input_money;
};
export type Input_money = {
  amount: number;
  currency: "EUR" | "USD";
};
