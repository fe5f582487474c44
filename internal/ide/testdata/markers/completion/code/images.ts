// images: a page that writes a domain not declared yet.
export default async function images(input: { id: string }) {
  return (await http.fetch("https://images.example.org/x/" + input.id)).status;
}
