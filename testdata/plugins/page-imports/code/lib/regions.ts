export const REGIONS = {
  us: "https://api.tickets.example.com",
  eu: "https://eu.tickets.example.com",
};
