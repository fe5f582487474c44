// Virtual-hosted-style S3 URLs would put the bucket in the host; we use path style.
export type Region = "us-east-1" | "eu-west-1";

export const s3Endpoint = (region: Region = "us-east-1") => `https://s3.${region}.amazonaws.com`;
