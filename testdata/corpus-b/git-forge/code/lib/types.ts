export type Forge = "github" | "gitlab" | "codeberg";
export type RepoPath = `/repos/${string}/${string}`;
export type Method = "GET" | "POST" | "PATCH";
export type Fetcher = typeof http.fetch;
