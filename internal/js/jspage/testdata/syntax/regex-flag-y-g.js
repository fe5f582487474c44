export default async function () {
  const re = /\d/gy;
  return ["12a3".match(/\d/g), re.exec("12")?.[0], re.lastIndex];
}
