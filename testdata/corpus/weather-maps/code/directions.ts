// Google Directions API (JSON output).
const GOOGLE_MAPS_API = "https://maps.googleapis.com/maps/api";

export default async function directions({ from, to }: { from: string; to: string }) {
  const qs = new URLSearchParams({ origin: from, destination: to, mode: "driving" });
  const res = await http.fetch(new URL(`directions/json?${qs}`, GOOGLE_MAPS_API + "/").href); //@hosts(maps.googleapis.com)
  const data = await res.json();
  const leg = data.routes[0]?.legs[0];
  return leg ? `${leg.distance.text}, ${leg.duration.text}` : data.status;
}
