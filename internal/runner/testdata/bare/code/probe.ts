// A plugin that declares no capabilities.host gets no host methods at all.
export default () => {
  const g = globalThis as any;
  return { http: typeof g.http, collections: typeof g.collections, console: typeof console.log };
};
