// A literal import() is resolved like a static import, and refused.
export default async () => {
  const os = await import("qjs:os");
  return os.readdir("/");
};
