export default async () => http.fetch("http://api.example.com/v1/items");
