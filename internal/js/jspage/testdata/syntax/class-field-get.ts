class Client {
  base = "https://api.example.com";
  get = this.request.bind(this, "GET");
  post = this.request.bind(this, "POST");
  request(method: string, path: string) {
    return `${method} ${this.base}${path}`;
  }
}
export default async function () {
  return new Client().get("/books");
}
