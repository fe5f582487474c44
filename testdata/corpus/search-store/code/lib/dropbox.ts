// Dropbox SDK style: RPC endpoints on api., content endpoints on content.
const HOSTS = { api: "api.dropboxapi.com", content: "content.dropboxapi.com" } as const;

type Style = keyof typeof HOSTS;

export function createDropboxClient(style: Style) {
  const base = `https://${HOSTS[style]}/2`;
  return async function call(route: string, args: unknown): Promise<Response> {
    const init =
      style === "content"
        ? { method: "POST", headers: { "Dropbox-API-Arg": JSON.stringify(args) } }
        : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) };
    return http.fetch(`${base}/${route}`, init); //@hosts(api.dropboxapi.com, content.dropboxapi.com)
  };
}

export const rpc = createDropboxClient("api");
export const content = createDropboxClient("content");
