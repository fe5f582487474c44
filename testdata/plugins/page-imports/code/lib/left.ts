import { right } from "./right";

export const left = (n: number): number => (n <= 0 ? 0 : right(n - 1));
