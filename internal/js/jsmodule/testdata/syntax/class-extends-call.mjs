const Base = (B) => class extends B { static = true; get = () => 1; };
export class Tooling extends Base(Object) {
  accessor level = 1;
  static { this.made = 1; }
}
export const tools = { lvl: { description: "Level", run: async () => new Tooling().level } };
