// related: terms that share a word with the given one.
const terms = ["quorum", "quorum read", "idempotent", "idempotent retry"];

export default function related(input: { term: string }) {
  return { type: "list", items: terms.filter((t) => t !== input.term && t.includes(input.term)) };
}
