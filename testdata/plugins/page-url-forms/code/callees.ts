// Every way to reach http.fetch: the checker must see each call.
const { fetch } = http;
const { fetch: grab } = http;
const h = http;
const f = http.fetch;
const bound = http.fetch.bind(http);

export default async function callees() {
  await http["fetch"]("https://bracket.example.com/");
  await http?.fetch("https://optional.example.com/");
  await fetch("https://destructured.example.com/");
  await grab("https://renamed.example.com/");
  await h.fetch("https://alias-object.example.com/");
  await f("https://alias-method.example.com/");
  await bound("https://bound.example.com/");
  await globalThis.http.fetch("https://global.example.com/");
  await http.fetch.call(http, "https://call.example.com/");
  await (http as any).fetch("https://cast.example.com/");
  await http
    .fetch(
      "https://multiline.example.com/",
    );
  return { type: "markdown", text: "ok" };
}
