// A relative import that climbs out of the plugin directory.
import hosts from "../../../../../../etc/hosts";
export default () => hosts;
