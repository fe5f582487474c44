// activeAlerts: the alerts in force for one state.
type Alert = { properties: { event: string; headline: string; severity: "Minor" | "Moderate" | "Severe" | "Extreme" } };

export default async function activeAlerts(input: { state: string }) {
  const state = input.state.trim().toUpperCase();
  const res = await http.fetch(`https://api.weather.gov/alerts/active?area=${state}`);
  const body = (await res.json()) as { features: Alert[] };
  if (body.features.length === 0) {
    return { type: "markdown", text: `No active alerts in **${state}**.` };
  }
  const lines = body.features.map((a) => `- **${a.properties.event}** (${a.properties.severity}): ${a.properties.headline}`);
  return { type: "markdown", text: lines.join("\n") };
}
