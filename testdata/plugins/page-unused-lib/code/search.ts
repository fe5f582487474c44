import { Catalogue } from "./lib/catalogue";

export default async ({ q }: { q: string }) => (await new Catalogue().search(q)).json();
