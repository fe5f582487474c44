// The plugin's one API client: the only place that fetches.
import { REGIONS } from "./regions";

export const api = (path: string, region: keyof typeof REGIONS = "us") => http.fetch(`${REGIONS[region]}${path}`);
