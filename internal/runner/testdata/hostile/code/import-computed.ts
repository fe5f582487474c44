// A computed import() is compiled into a require() that throws.
export default async () => {
  const name = ["qjs", "os"].join(":");
  const os = await import(name);
  return os.readdir("/");
};
