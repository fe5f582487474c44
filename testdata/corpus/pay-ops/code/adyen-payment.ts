// Adyen: test and live checkout endpoints differ by host.
let endpoint: string;

function configure(environment: "test" | "live") {
  switch (environment) {
    case "live":
      endpoint = "https://checkout-live.adyenpayments.com/checkout/v71";
      break;
    case "test":
    default:
      endpoint = "https://checkout-test.adyen.com/v71";
  }
}

export default async function adyenPayment(input: { environment?: "test" | "live"; amount: number }) {
  configure(input.environment ?? "test");
  const res = await http.fetch(`${endpoint}/payments`, { //@hosts(checkout-test.adyen.com, checkout-live.adyenpayments.com)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      amount: { currency: "EUR", value: input.amount },
      reference: `order-${Date.now()}`,
      paymentMethod: { type: "scheme", encryptedCardNumber: "test_4111111111111111" },
      merchantAccount: "ExampleECOM",
    }),
  });
  return (await res.json()).resultCode;
}
