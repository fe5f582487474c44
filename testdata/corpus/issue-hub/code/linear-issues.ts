import { LINEAR } from "./lib/config";

const QUERY = `query { viewer { assignedIssues(first: 25) { nodes { identifier title state { name } } } } }`;

async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await http.fetch(LINEAR.graphql, { //@hosts(api.linear.app)
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const { data, errors } = await res.json();
  if (errors?.length) throw new Error(errors[0].message);
  return data as T;
}

export default async function linearIssues() {
  const data = await gql<any>(QUERY);
  return data.viewer.assignedIssues.nodes.map((n: any) => `${n.identifier} ${n.title} [${n.state.name}]`);
}
