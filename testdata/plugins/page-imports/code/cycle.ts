import { left } from "./lib/left";

export default async function cycle() {
  return left(2);
}
