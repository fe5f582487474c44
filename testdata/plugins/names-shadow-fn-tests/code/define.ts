// define: the glossary entry for a term, from the words the page knows.
const entries: Record<string, string> = {
  idempotent: "Gives the same result however many times it runs.",
  quorum: "The smallest number of members that can decide.",
};

export default function define(input: { term: string }) {
  const text = entries[input.term.toLowerCase()];
  if (!text) throw new Error(`no entry for ${input.term}`);
  return { type: "text", value: text };
}
