// The cluster is the user's own: its address is an input.
export default async function clusterHealth({ node }: { node: string }) {
  const base = node.replace(/\/+$/, "");
  const res = await http.fetch(`${base}/_cluster/health`); //@hosts(DYNAMIC)
  const h = await res.json();
  return `${h.cluster_name}: ${h.status} (${h.number_of_nodes} nodes)`;
}
