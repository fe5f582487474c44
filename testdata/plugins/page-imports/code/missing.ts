import { api } from "./lib/clients";

export default async () => api("/x");
