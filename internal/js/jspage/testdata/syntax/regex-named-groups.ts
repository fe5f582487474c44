export default async function () {
  const m = /(?<year>\d{4})-(?<month>\d{2})/.exec("2024-05");
  return [m?.groups?.year, "2024-05".replace(/(?<y>\d+)-(?<m>\d+)/, "$<m>/$<y>")];
}
