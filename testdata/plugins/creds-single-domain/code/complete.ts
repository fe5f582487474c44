// complete: one chat completion.
interface Choice {
  message: { content: string };
}

export default async function complete(input: { prompt: string }) {
  const res = await http.fetch(`https://api.openai.com/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: input.prompt }] }),
  });
  const data = (await res.json()) as { choices: Choice[] };
  return { type: "markdown", text: data.choices[0]?.message.content ?? "(empty)" };
}
