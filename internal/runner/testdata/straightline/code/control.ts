// not hostile: what every run after a hostile one must still answer.
export default function (input: { n?: number }) {
  return { ok: true, n: input?.n ?? 0 };
}
