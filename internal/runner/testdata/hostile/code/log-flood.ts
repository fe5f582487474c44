export default () => {
  for (let i = 0; i < 100000; i++) console.log("flood line", i, "x".repeat(50));
  return "flooded";
};
