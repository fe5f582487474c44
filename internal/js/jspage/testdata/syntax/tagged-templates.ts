function sql(strings: TemplateStringsArray, ...values: unknown[]) {
  return strings.raw.join("?") + values.length;
}
export default async function () {
  const id = 3;
  return [sql`select * from t where id = ${id} and x = ${"y"}`, String.raw`a\nb`];
}
