import { s3Endpoint, type Region } from "./lib/s3";

export default async function listObjects(input: { bucket: string; region?: Region; prefix?: string }) {
  const params = new URLSearchParams({ "list-type": "2", prefix: input.prefix ?? "" });
  const res = await http.fetch(`${s3Endpoint(input.region)}/${input.bucket}?${params}`); //@hosts(s3.us-east-1.amazonaws.com, s3.eu-west-1.amazonaws.com)
  const xml = await res.text();
  return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]);
}
