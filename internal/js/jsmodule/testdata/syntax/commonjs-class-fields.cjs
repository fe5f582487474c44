class Api {
  static get = (p) => "GET " + p;
  set = 1;
}
module.exports = {
  tools: { ping: { description: "Ping", run: async () => Api.get("/ping") } },
};
