export default async function addTodo(input: { title: string }) {
  await collections.put("todos", input.title, { done: false });
  return { type: "markdown", text: `Added ${input.title}` };
}
