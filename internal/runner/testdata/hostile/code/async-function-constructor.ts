export default async () => {
  const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
  return await AsyncFunction("const os = await import('qjs:os'); return os.readdir('/');")();
};
