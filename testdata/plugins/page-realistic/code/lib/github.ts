// Shared GitHub helpers (not a tool page: imported by the pages below).
export const GITHUB = { api: "https://api.github.com", accept: "application/vnd.github+json" } as const;
