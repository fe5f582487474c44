import { MailgunRegion } from "./lib/providers";
import { RequestBuilder } from "./lib/request-builder";

export default async function mailgunEvents(input: { domain: string; region?: MailgunRegion.Name }) {
  const req = RequestBuilder.to(MailgunRegion.base(input.region ?? "us"), `/v3/${input.domain}/events`)
    .query("limit", 25)
    .query("event", "failed");
  const res = await http.fetch(req.url); //@hosts(api.mailgun.net, api.eu.mailgun.net)
  return (await res.json()).items;
}
