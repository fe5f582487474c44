class Jenkins {
  #base = new URL("https://jenkins.invalid/");
  constructor(server: string) {
    this.#base.hostname = server;
  }
  get api(): URL {
    return new URL(this.#base);
  }
  async lastBuild(job: string) {
    const u = this.api;
    u.pathname = `/job/${encodeURIComponent(job)}/lastBuild/api/json`;
    u.searchParams.set("tree", "result,number,url");
    return (await http.fetch(u)).json(); //@hosts(DYNAMIC)
  }
}

export default async function jenkinsJob(input: { server: string; job: string }) {
  const b = await new Jenkins(input.server).lastBuild(input.job);
  return { result: b.result ?? null, number: b.number ?? null };
}
