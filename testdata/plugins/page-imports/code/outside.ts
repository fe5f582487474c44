import { secrets } from "../../../etc/secrets";

export default async () => secrets;
