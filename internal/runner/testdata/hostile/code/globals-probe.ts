// Nothing of the host is reachable: no std/os, no process, no require,
// no network API but the brokered one, no filesystem.
export default () => {
  const names = ["std", "os", "bjson", "print", "scriptArgs", "gc", "navigator", "process", "require",
    "Deno", "Bun", "fetch", "XMLHttpRequest", "WebSocket", "SharedArrayBuffer", "Atomics", "__bridge"];
  const g = globalThis as any;
  return names.filter((n) => typeof g[n] !== "undefined");
};
