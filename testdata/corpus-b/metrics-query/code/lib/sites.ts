export enum Site {
  US1 = "datadoghq.com",
  US3 = "us3.datadoghq.com",
  US5 = "us5.datadoghq.com",
  EU1 = "datadoghq.eu",
}

export const enum Residency {
  US = "us",
  EU = "eu",
  IN = "in",
}

export function siteFromName(name: keyof typeof Site): Site {
  return Site[name];
}
