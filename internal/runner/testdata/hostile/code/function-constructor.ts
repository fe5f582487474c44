// Code from strings: the Function constructor is disabled.
export default () => {
  const F = (function () {}).constructor;
  return F("return import('qjs:std')")();
};
