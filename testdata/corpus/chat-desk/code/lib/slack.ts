// A small Slack Web API client in the style of @slack/web-api:
// client.apiCall("chat.postMessage", { ... }).

export interface SlackResponse {
  ok: boolean;
  error?: string;
  response_metadata?: { next_cursor?: string };
  [key: string]: unknown;
}

export class WebClient {
  private readonly slackApiUrl: string;

  constructor(options: { slackApiUrl?: string } = {}) {
    this.slackApiUrl = options.slackApiUrl ?? "https://slack.com/api/";
  }

  async apiCall(method: string, options: Record<string, unknown> = {}): Promise<SlackResponse> {
    const res = await http.fetch(this.slackApiUrl + method, { //@hosts(slack.com)
      method: "POST",
      headers: { "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify(options),
    });
    const data = (await res.json()) as SlackResponse;
    if (!data.ok) {
      throw new Error(`Slack ${method} failed: ${data.error}`);
    }
    return data;
  }

  async paginate(method: string, options: Record<string, unknown>, key: string): Promise<unknown[]> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.apiCall(method, { ...options, cursor, limit: 200 });
      items.push(...((page[key] as unknown[]) ?? []));
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor && items.length < 1000);
    return items;
  }
}

export const slack = new WebClient();
