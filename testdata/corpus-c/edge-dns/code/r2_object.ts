// R2's S3 endpoint is per account: https://<account>.r2.cloudflarestorage.com
export default async function R2Object({ account_id, bucket, key }: { account_id: string; bucket: string; key: string }) {
  const endpoint = "https://".concat(account_id, ".r2.cloudflarestorage.com");
  const res = await http.fetch([endpoint, bucket, key].join("/"), { method: "HEAD" }); //@hosts(DYNAMIC *.r2.cloudflarestorage.com)
  return { status: res.status, size: Number(res.headers.get("content-length") ?? 0) };
}
