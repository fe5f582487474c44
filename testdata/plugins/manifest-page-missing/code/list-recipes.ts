// listRecipes: the saved recipes.
export default async function listRecipes() {
  const all = (await collections.query("recipes", {})) as { title: string }[];
  return { type: "table", columns: ["Title"], rows: all.map((r) => [r.title]) };
}
