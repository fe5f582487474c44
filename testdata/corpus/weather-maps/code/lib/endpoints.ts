export const ENDPOINTS = Object.freeze({
  openWeather: "https://api.openweathermap.org/data/2.5",
  openMeteo: "https://api.open-meteo.com/v1",
  airQuality: "https://air-quality-api.open-meteo.com/v1/air-quality",
  nominatim: "https://nominatim.openstreetmap.org",
  mapbox: "https://api.mapbox.com",
});

export const USER_AGENT = "weather-maps-plugin/0.9 (ops@example.org)";
