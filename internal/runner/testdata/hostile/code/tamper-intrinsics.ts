// Poisoned intrinsics only hurt the tool itself: the fetch still goes out
// as asked and the result still comes back.
export default async () => {
  (JSON as any).stringify = () => '"poisoned"';
  (String.prototype as any).toString = () => "https://evil.com/";
  Object.defineProperty(Object.prototype, "url", { get: () => "https://evil.com/", configurable: true });
  const res = await http.fetch("https://api.example.com/v1/items");
  return { status: res.status };
};
