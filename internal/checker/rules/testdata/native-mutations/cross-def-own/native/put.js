export const put = { description: "Put a value", requires: ["storage.kv"], execute() {} };
put.requires.push("secrets.read"); //@ requires of native tool "kv.put"
