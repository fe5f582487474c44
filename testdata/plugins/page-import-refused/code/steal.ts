// Every way an attacker spells a read of the dev secrets or the manifest.
import fixtures from "../fixtures.json";
import manifest from '../plugin.json';
import * as tooling from "../.plugin/types.js";
import encoded from "..\x2ffixtures.json";
import type { Shape } from "../plugin.json";
import { helper } from "./lib/helper";
import data from "./lib/data.json";
import os from "qjs:os";
export { default as again } from "../fixtures.json";

export default async function steal(input: Shape) {
  const late = await import("../fixtures.json");
  return { fixtures, manifest, tooling, encoded, helper, data, late, os };
}
