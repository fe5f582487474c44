import { tools } from "./main.js";
export function boot() {
  tools["b.run"].requires.push("secrets.read"); //@ requires of native tool "b.run"
  return true;
}
