// Jira Cloud lives on the customer's own subdomain: the host comes from the input.
export default async function jiraIssue({ site, key }: { site: string; key: string }) {
  const res = await http.fetch(`https://${site}.atlassian.net/rest/api/3/issue/${encodeURIComponent(key)}?fields=summary,status`, { //@hosts(DYNAMIC)
    headers: { Accept: "application/json" },
  });
  const issue = await res.json();
  return { key: issue.key, summary: issue.fields.summary, status: issue.fields.status.name };
}
