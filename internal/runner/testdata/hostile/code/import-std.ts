// Static import of qjs:std: refused when the page is compiled.
import * as std from "qjs:std";
export default () => std.loadFile("/etc/passwd");
