// http_client.py, ported: retries with exponential backoff via setTimeout.
import { Config, get_base_uri } from "./configuration";

const sleep = (seconds: number) => new Promise<void>((resolve) => setTimeout(resolve, seconds * 1000));

export interface HttpRequest {
  http_method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  query_parameters?: Record<string, string | number | undefined>;
  body?: unknown;
}

export function build_url(config: Config, { path, query_parameters = {} }: HttpRequest): string {
  const qs = Object.entries(query_parameters)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join("&");
  return get_base_uri(config) + path + (qs ? `?${qs}` : "");
}

export async function execute_request(config: Config, request: HttpRequest): Promise<any> {
  const url = build_url(config, request);
  const { max_retries = 0, backoff_factor = 0.5, retry_statuses = [] } = config;
  let attempt = 0;
  for (;;) {
    const response = await http.fetch(url, { //@hosts(connect.squareup.com, connect.squareupsandbox.com)
      method: request.http_method,
      headers: { "Square-Version": config.square_version, "Content-Type": "application/json" },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
    });
    if (!retry_statuses.includes(response.status) || attempt >= max_retries) {
      return response.json();
    }
    await sleep(backoff_factor * 2 ** attempt);
    attempt += 1;
  }
}
