export const PAYPAL_HOSTS = {
  live: "https://api-m.paypal.com",
  sandbox: "https://api-m.sandbox.paypal.com",
};

export function paypalBase(sandbox: boolean): string {
  return sandbox ? PAYPAL_HOSTS.sandbox : PAYPAL_HOSTS.live;
}
