// Tells the TypeScript server plugin (tsserver-plugin/, contributed through
// package.json contributes.typescriptServerPlugins) which plugin-lsp binary
// prints a plugin's declarations (`types --stdout`) and where its private
// cache is. Without this it uses the binary bundled beside it, else
// plugin-lsp on PATH, and a folder in the temporary directory.
import type * as vscode from "vscode";

export const TSSERVER_PLUGIN = "plugin-lsp-tsserver";
export const TS_EXTENSION = "vscode.typescript-language-features";

export interface TsserverPluginConfig {
  command: string;
  args: string[];
  cacheDir: string;
}

interface TypeScriptApi {
  configurePlugin(pluginId: string, configuration: unknown): void;
}

/** Sends the configuration through VS Code's TypeScript extension API; false when that extension or its API is missing. */
export async function configureTsserverPlugin(extensions: typeof vscode.extensions, config: TsserverPluginConfig): Promise<boolean> {
  const ts = extensions.getExtension<{ getAPI?(version: 0): TypeScriptApi | undefined }>(TS_EXTENSION);
  if (!ts) return false;
  const ext = ts.isActive ? ts.exports : await ts.activate();
  const api = ext?.getAPI?.(0);
  if (!api) return false;
  api.configurePlugin(TSSERVER_PLUGIN, config);
  return true;
}
