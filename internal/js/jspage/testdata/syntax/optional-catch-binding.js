export default async function () {
  try { JSON.parse("{"); } catch { return "bad json"; } finally { }
}
