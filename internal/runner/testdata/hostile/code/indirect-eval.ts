export default () => {
  const e = globalThis.eval;
  return e("import('qjs:os')");
};
