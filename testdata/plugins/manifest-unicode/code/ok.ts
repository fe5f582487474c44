export default function ok() {
  return { type: "markdown", text: "✓ 🎉" };
}
