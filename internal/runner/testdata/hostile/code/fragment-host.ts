export default async () => http.fetch("https://evil.com#api.example.com");
