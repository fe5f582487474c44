import { content } from "./lib/dropbox";

export default async function dropboxDownload({ path }: { path: string }) {
  const res = await content("files/download", { path });
  return await res.text();
}
