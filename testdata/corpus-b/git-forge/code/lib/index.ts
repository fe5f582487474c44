export * as github from "./github";
export * as gitea from "./gitea";
export type { Forge } from "./types";
