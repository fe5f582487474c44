class Client {
  get = this.request.bind(this, "GET");
  request(m, p) { return m + " " + p; }
}
const client = new Client();
export const tools = {
  list: { description: "List", run: async () => client.get("/x") },
};
