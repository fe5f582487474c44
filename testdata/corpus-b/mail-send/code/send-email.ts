import { providers, type Message } from "./lib/providers";
import { send } from "./lib/request-builder";

export default async function sendEmail(input: Message & { provider: keyof typeof providers }) {
  const builder = providers[input.provider](input);
  if (input.provider === "mailgun") {
    // Mailgun answers form posts with JSON only when asked by the init, not the Request.
    const { url, init } = builder.parts();
    const res = await http.fetch(url, { ...init, headers: { Accept: "application/json" } }); //@hosts(api.mailgun.net)
    return res.json();
  }
  return send(builder.build());
}
