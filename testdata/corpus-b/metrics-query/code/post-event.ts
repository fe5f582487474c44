import { Datadog } from "./lib/datadog";
import { Mixpanel } from "./lib/mixpanel";

export default async function postEvent(input: { title: string; mirror?: boolean }) {
  const out: Record<string, unknown> = { datadog: await Datadog.default.event(input.title) };
  if (input.mirror) out.mixpanel = await Mixpanel.track(input.title, http.fetch);
  return out;
}
