import { TileEndpoint } from "./lib/tiles";

export default async function selfHostedTiles({ origin, port }: { origin: string; port?: number }) {
  const t = TileEndpoint.selfHosted(origin, port).tileJson();
  const status = await t.probe();
  return { url: t.href, status };
}
