import { left } from "./left";

export const right = (n: number): number => (n <= 0 ? 1 : left(n - 1));
