// The URL goes on with the input: its host may be eu.mirror.example.com or eu.mirror.example.com.evil.net.
export default async ({ path }: { path: string }) => http.fetch("https://eu.mirror.example.com" + path);
