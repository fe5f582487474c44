namespace Here {
  export namespace Isoline {
    export const BASE = new URL("https://isoline.router.hereapi.com/v8/isolines");
    export const modes = { car: "car", pedestrian: "pedestrian", truck: "truck" } as const;
    export function url(lat: number, lon: number, seconds: number, mode: keyof typeof modes): URL {
      const u = new URL(BASE);
      u.search = new URLSearchParams({ origin: `${lat},${lon}`, "range[type]": "time", "range[values]": String(seconds), transportMode: modes[mode] }).toString();
      return u;
    }
  }
}

export default async function isoline(input: { lat: number; lon: number; minutes?: number; mode: "car" | "pedestrian" | "truck" }) {
  const u = Here.Isoline.url(input.lat, input.lon, (input.minutes ?? 15) * 60, input.mode);
  if (input.mode === "truck") u.hostname = "tour.router.hereapi.com";
  const res = await http.fetch(u); //@hosts(isoline.router.hereapi.com, tour.router.hereapi.com)
  const body = await res.json();
  return { polygons: (body.isolines ?? []).length };
}
