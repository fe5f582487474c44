import { slack } from "./lib/slack";

interface Channel {
  id: string;
  name: string;
  num_members: number;
}

export default async function listChannels() {
  const channels = (await slack.paginate("conversations.list", { exclude_archived: true }, "channels")) as Channel[];
  return {
    type: "table",
    columns: ["Channel", "Members"],
    rows: channels.map((c) => [`#${c.name}`, c.num_members]),
  };
}
