export class Catalogue {
  baseUrl = "https://api.catalogue.example.com/v2";

  search(q: string) {
    return http.fetch(`${this.baseUrl}/search?q=${encodeURIComponent(q)}`);
  }
}
