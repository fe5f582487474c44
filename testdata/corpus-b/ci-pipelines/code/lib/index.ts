export * as endpoints from "./endpoints";
export * as api from "./http";
