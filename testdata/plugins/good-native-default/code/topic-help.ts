// topicHelp: a pure function tool (no host methods at all).
const HELP: Record<string, string> = {
  "+": "matches exactly one level: sensors/+/temp",
  "#": "matches all remaining levels: sensors/#",
};

export default function topicHelp(input: { wildcard?: string }) {
  const w = input?.wildcard;
  if (w && HELP[w]) {
    return { type: "markdown", text: `\`${w}\` ${HELP[w]}` };
  }
  return { type: "markdown", text: Object.entries(HELP).map(([k, v]) => `- \`${k}\` ${v}`).join("\n") };
}
