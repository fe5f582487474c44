export default async function () {
  const opts: { retries?: number; name?: string | null; on?: boolean } = { name: null };
  opts.retries ??= 3;
  opts.name ??= "default";
  opts.on ||= true;
  let n = 5;
  n &&= n + 1;
  return { ...opts, n };
}
