// Record metadata from the API host, then the thumbnail from the content host.
export default async function attachment(input: { baseId: string; table: string; recordId: string }) {
  let url = `https://api.airtable.com/v0/${input.baseId}/${encodeURIComponent(input.table)}/${input.recordId}`;
  const rec = await (await http.fetch(url)).json(); //@hosts(api.airtable.com)
  url = `https://content.airtable.com/v0/${input.baseId}/${input.recordId}/thumbnails`;
  const thumbs = await http.fetch(url, { method: "HEAD" }); //@hosts(content.airtable.com)
  url = "https://dl.airtable.com/.attachmentThumbnails/" + (rec.id ?? "none");
  const legacy = await http.fetch(url, { method: "HEAD" }).catch(() => null); //@hosts(dl.airtable.com)
  return { id: rec.id ?? null, thumbnails: thumbs.status, legacy: legacy?.status ?? null };
}
