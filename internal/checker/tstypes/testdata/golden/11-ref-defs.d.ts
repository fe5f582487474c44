// Generated from testdata/schemas/11-ref-defs.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  from: Input_date;
  to?: Input_date;
  who?: Input_person;
};
export type Input_date = string;
export type Input_person = {
  name: string;
};
