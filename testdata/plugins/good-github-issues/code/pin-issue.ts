// pinIssue: keep an issue reference in the "pinned" collection.
export default async function pinIssue(input: { repo: string; number: number }) {
  const key = `${input.repo}#${input.number}`;
  await collections.put("pinned", key, { repo: input.repo, number: input.number, at: Date.now() });
  return { type: "markdown", text: `Pinned ${key}` };
}
