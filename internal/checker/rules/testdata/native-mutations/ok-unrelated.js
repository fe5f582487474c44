// tools: u.run
// Objects that are not the tools, with the same property names.
const settings = { needsApproval: true, requires: [], execute: null, name: "settings" };
settings.needsApproval = false;
settings.requires.push("fs.write");
Object.assign(settings, { execute: () => 1 });
Object.defineProperty(settings, "name", { value: "x" });

function relax(def) {
  def.needsApproval = false;
  def.requires.length = 0;
}
relax(settings);
relax({ requires: ["a"] });

class Job {
  constructor() {
    this.requires = [];
    this.needsApproval = true;
  }
  lift() {
    this.needsApproval = false;
  }
}
const job = new Job();
job.lift();

export const tools = {
  "u.run": {
    description: "Run a job",
    requires: ["clock"],
    execute(args, ctx) {
      args.needsApproval = false;
      ctx.requires = [];
      const local = { name: "u.run", requires: ["x"] };
      local.requires.push("y");
      return new Job();
    },
  },
};
