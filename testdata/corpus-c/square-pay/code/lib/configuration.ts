// Port of squareup's python Configuration: a dict of settings with
// environment-dependent base URLs.
export type Environment = "production" | "sandbox";

export const DEFAULT_CONFIG = {
  environment: "production" as Environment,
  square_version: "2024-07-17",
  max_retries: 2,
  backoff_factor: 0.05,
  retry_statuses: [429, 500, 503],
  timeout: 10,
};

export type Config = typeof DEFAULT_CONFIG & { custom_url?: string };

export function get_base_uri(config: Config): string {
  if (config.custom_url) return config.custom_url;
  return {
    production: "https://connect.squareup.com",
    sandbox: "https://connect.squareupsandbox.com",
  }[config.environment];
}

export function make_config(overrides: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, ...overrides };
}
