import { S3Client } from "./lib/client";
import { Region } from "./lib/regions";

export default async function headObject({ bucket, key, region = "us-east-1" }: { bucket: string; key: string; region?: "us-east-1" | "eu-west-1" }) {
  const client = S3Client.forRegion(region as Region, http.fetch.bind(http)).virtualHosted();
  const res = await client.sendVirtual("HEAD", client.url(bucket, key));
  return { status: res.status, type: res.headers.get("content-type") };
}
