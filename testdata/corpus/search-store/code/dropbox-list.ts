import { rpc } from "./lib/dropbox";

export default async function dropboxList({ path = "" }: { path?: string }) {
  const res = await rpc("files/list_folder", { path, limit: 50 });
  const { entries } = await res.json();
  return entries.map((e: any) => `${e[".tag"] === "folder" ? "📁" : "📄"} ${e.name}`);
}
