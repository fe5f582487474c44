import { RequestBuilder } from "./request-builder";

export interface Message {
  to: string;
  subject: string;
  text: string;
}

export const FROM = "noreply@example.com";

export const providers = {
  sendgrid: (m: Message) =>
    RequestBuilder.to("https://api.sendgrid.com", "/v3/mail/send")
      .method("POST")
      .json({ personalizations: [{ to: [{ email: m.to }] }], from: { email: FROM }, subject: m.subject, content: [{ type: "text/plain", value: m.text }] }),
  postmark: (m: Message) =>
    RequestBuilder.to("https://api.postmarkapp.com", "/email")
      .method("POST")
      .header("Accept", "application/json")
      .json({ From: FROM, To: m.to, Subject: m.subject, TextBody: m.text }),
  mailgun: (m: Message) =>
    RequestBuilder.to(MailgunRegion.base("us"), "/v3/mg.example.com/messages")
      .method("POST")
      .form({ from: FROM, to: m.to, subject: m.subject, text: m.text }),
};

export namespace MailgunRegion {
  const HOSTS = { us: "api.mailgun.net", eu: "api.eu.mailgun.net" } as const;
  export type Name = keyof typeof HOSTS;
  export function base(r: Name): string {
    return `https://${HOSTS[r]}`;
  }
}
