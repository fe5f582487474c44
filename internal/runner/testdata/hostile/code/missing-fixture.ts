export default async () => http.fetch("https://api.example.com/v1/nothing-here");
