export * from "./inbox.js";
