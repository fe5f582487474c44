type Routes = Record<string, { path: string }>;
const routes = {
  home: { path: "/" },
  book: { path: "/book" },
} satisfies Routes;
export default async function () {
  return routes.book.path;
}
