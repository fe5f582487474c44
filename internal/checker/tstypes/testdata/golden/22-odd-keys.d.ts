// Generated from testdata/schemas/22-odd-keys.json by TestGolden (go test ./internal/checker/tstypes -update).
export type Input = {
  $meta?: { [key: string]: unknown };
  "2fa"?: boolean;
  "content-type": string;
  "ünï"?: string;
};
