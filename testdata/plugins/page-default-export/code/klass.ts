// A class cannot be called without `new`.
export default class Tool {
  run() {
    return { type: "markdown", text: "x" };
  }
}
