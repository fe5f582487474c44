// Regions the console offers; ap-southeast-1 was added last quarter.
export enum Region {
  UsEast1 = "us-east-1",
  EuWest1 = "eu-west-1",
  ApSoutheast1 = "ap-southeast-1",
}

export type S3Host = `s3.${Region}.amazonaws.com`;

export const DEFAULT_REGION = Region.UsEast1;

export function parseRegion(s: string | undefined): Region {
  const all = Object.values(Region) as string[];
  return (s && all.includes(s) ? s : DEFAULT_REGION) as Region;
}
