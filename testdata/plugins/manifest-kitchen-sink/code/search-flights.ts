// searchFlights: one query to the flights API.
interface Offer {
  carrier: string;
  departs: string;
  price: { amount: number; currency: string };
}

export default async function searchFlights(input: { from: string; to: string; date?: string }) {
  const date = input.date ?? new Date().toISOString().slice(0, 10);
  const res = await http.fetch(`https://api.flights.example/v1/offers?from=${input.from}&to=${input.to}&date=${date}`);
  const offers = (await res.json()) as Offer[];
  return {
    type: "table",
    columns: ["Carrier", "Departs", "Price"],
    rows: offers.map((o) => [o.carrier, o.departs, `${o.price.amount} ${o.price.currency}`]),
  };
}
