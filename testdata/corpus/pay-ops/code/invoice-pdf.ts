import { stripe, stripeFiles } from "./lib/stripe";

export default async function invoicePdf({ invoice }: { invoice: string }) {
  const inv = await stripe.request<{ invoice_pdf: string; number: string }>("GET", `/invoices/${encodeURIComponent(invoice)}`);
  const links = await stripeFiles.request<{ data: { url: string }[] }>("GET", "/file_links", { limit: 1 });
  return { number: inv.number, pdf: inv.invoice_pdf, link: links.data[0]?.url };
}
