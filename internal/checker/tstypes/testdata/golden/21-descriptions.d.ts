// Generated from testdata/schemas/21-descriptions.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  /** At most this many results */
  limit?: number;
  /**
   * What to search for.
   * Phrases in quotes match exactly; *\/ is harmless here.
   */
  q: string;
};
