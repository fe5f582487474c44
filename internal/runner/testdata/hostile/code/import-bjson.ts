import * as bjson from "qjs:bjson";
export default () => typeof bjson.read;
