// Generated from testdata/schemas/12-recursive-ref.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  root: Input_node;
};
export type Input_node = {
  children?: Input_node[];
  label: string;
};
