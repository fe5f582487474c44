const counter = (() => { let n = 0; return () => ++n; })();
export default async function () {
  counter();
  return await (async () => counter())();
}
