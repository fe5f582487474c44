// A type literal that is never closed.
export default async function broken(input: { q: string ) {
  return http.fetch(`https://api.example.com/?q=${input.q}`);
}
