import { Octo } from "./lib/github";

class EnterpriseOcto extends Octo {
  static on(server: string) {
    return new EnterpriseOcto({ fetch: (u, init) => http.fetch(u, init), baseUrl: `https://${server}/api/v3` }); //@hosts(DYNAMIC)
  }
}

export default async function enterpriseUser(input: { server: string; login: string }) {
  const res = await EnterpriseOcto.on(input.server).get(`/users/${input.login}`);
  return res.json();
}
