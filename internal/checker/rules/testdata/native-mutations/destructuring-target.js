// tools: tg.send
const send = { description: "Send", needsApproval: true, requires: [], execute() {} };
export const tools = { "tg.send": send };
const policy = { allow: false, caps: ["fs.write"] };
({ allow: send.needsApproval } = policy); //@ needsApproval of native tool "tg.send"
[send.requires] = [policy.caps]; //@ requires of native tool "tg.send"
