// Filling the store past its per-run cap is an error, not host memory growth.
export default async () => {
  const big = "x".repeat(64 * 1024);
  for (let i = 0; ; i++) await collections.put("flood", "k" + i, big);
};
