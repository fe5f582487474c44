import { S3Client } from "./lib/client";
import { parseRegion } from "./lib/regions";

export default async function listBuckets(input: { region: "us-east-1" | "eu-west-1" | "ap-southeast-1" }) {
  const client = S3Client.forRegion(parseRegion(input.region), http.fetch);
  const res = await client.send("GET", client.url());
  const body = await res.json();
  return { region: client.region, buckets: body.items ?? [] };
}
