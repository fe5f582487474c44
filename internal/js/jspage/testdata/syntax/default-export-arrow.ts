export default async (input: { q?: string } | null) => ({ echoed: input?.q ?? "x" });
