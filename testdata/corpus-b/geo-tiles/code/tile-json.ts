import { TileEndpoint } from "./lib/tiles";

export default async function tileJson({ style = "streets-v12", retina = false }: { style?: string; retina?: boolean }) {
  const t = TileEndpoint.mapbox().style(style, retina);
  return { url: t.href, status: await t.status() };
}
