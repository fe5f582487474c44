export default async () => {
  await new Promise((resolve) => setTimeout(resolve, 1e9));
  return "woke";
};
