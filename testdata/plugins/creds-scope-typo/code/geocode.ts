// geocode: the first result's coordinates.
interface GeocodeResult {
  formatted_address: string;
  geometry: { location: { lat: number; lng: number } };
}

export default async function geocode(input: { address: string }) {
  const q = encodeURIComponent(input.address);
  const res = await http.fetch(`https://maps.googleapis.com/maps/api/geocode/json?address=${q}`);
  const { results } = (await res.json()) as { results: GeocodeResult[] };
  if (results.length === 0) {
    return { type: "markdown", text: `No match for *${input.address}*` };
  }
  const { lat, lng } = results[0].geometry.location;
  return { type: "stat", value: `${lat.toFixed(5)}, ${lng.toFixed(5)}`, label: results[0].formatted_address };
}
