import { execute_request } from "./lib/api_helper";
import { make_config } from "./lib/configuration";

export default async function catalog_image({ object_id }: { object_id: string }) {
  const obj = await execute_request(make_config(), { http_method: "GET", path: `/v2/catalog/object/${object_id}` });
  const image_url: string | undefined = obj?.object?.image_data?.url;
  if (!image_url) {
    const placeholder = await http.fetch("https://square-catalog-production.s3.amazonaws.com/placeholder.png", { method: "HEAD" }); //@hosts(square-catalog-production.s3.amazonaws.com)
    return { found: false, placeholder: placeholder.ok };
  }
  // images are served from a CDN host named in the response
  const res = await http.fetch(image_url, { method: "HEAD" }); //@hosts(DYNAMIC)
  return { found: true, type: res.headers.get("content-type") };
}
