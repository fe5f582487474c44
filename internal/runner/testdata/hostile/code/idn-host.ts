// Cyrillic "а" in "аpi": an IDN lookalike.
export default async () => http.fetch("https://\u0430pi.example.com/v1/items");
