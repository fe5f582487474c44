// tools: a.one, a.two, a.three
const caps = ["clock"];
export const tools = {
  "a.one": { description: "One", requires: caps, execute() {} },
  "a.two": { description: "Two", requires: ["notify.user"], execute() {} },
  "a.three": { description: "Three", requires: ["storage.kv", "clock"], execute() {} },
};
caps.unshift("secrets.read"); //@ requires of native tool "a.one"
tools["a.two"].requires.splice(0, 1, "network.socket"); //@ requires of native tool "a.two"
tools["a.three"].requires.pop(); //@ requires of native tool "a.three"
tools["a.three"].requires.shift(); //@ requires of native tool "a.three"
