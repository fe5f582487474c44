class Config {
  static defaults: Record<string, number>;
  static {
    Config.defaults = { retries: 3 };
  }
}
export default async function () {
  return Config.defaults.retries;
}
