// One place for every upstream this plugin talks to.
export const GITHUB_API = "https://api.github.com";

export const GITLAB_BASES = {
  "gitlab.com": "https://gitlab.com/api/v4",
  eu: "https://gitlab.eu.example-hosting.com/api/v4",
} as const;

export const LINEAR = Object.freeze({ graphql: "https://api.linear.app/graphql" });

export const USER_AGENT = "issue-hub/1.2";
