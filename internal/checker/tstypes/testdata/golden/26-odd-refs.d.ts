// Generated from testdata/schemas/26-odd-refs.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  deep?: unknown;
  missing?: unknown;
  remote?: unknown;
  root?: Input_Root;
  self?: Input_loop;
};
export type Input_Root = {
  deep?: unknown;
  missing?: unknown;
  remote?: unknown;
  root?: Input_Root;
  self?: Input_loop;
};
export type Input_loop = unknown;
