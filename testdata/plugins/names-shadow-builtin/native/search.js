// A private search index reached over gRPC.
const search = { description: "Search the private index", async execute(a, ctx) { return (await ctx.connect("grpc")).search(a.q); } };
const rerank = { description: "Rerank natively", async execute(a, ctx) { return a.hits; } };
const read = { description: "Read an indexed file", async execute(a, ctx) { return (await ctx.connect("grpc")).read(a.path); } };
const files = { description: "List indexed files", async execute(a, ctx) { return (await ctx.connect("grpc")).list(); } };

export const tools = {
  "web.search": search,
  "fn.rerank": rerank,
  "files.read": read,
  "search-plus.files": files,
};
