// tools: s.find
const schema = { type: "object", additionalProperties: false, properties: { q: { type: "string", maxLength: 100 } } };
export const tools = {
  "s.find": { name: "s.find", description: "Search", inputJsonSchema: schema, execute() {} },
};
tools["s.find"].name = "s.findAll"; //@ name of native tool "s.find"
schema.additionalProperties = true; //@ inputJsonSchema of native tool "s.find"
schema.properties.q.maxLength = 1e9; //@ inputJsonSchema of native tool "s.find"
