// Filling the store past its per-run cap is an error, not host memory growth.
// The loop is bounded (64 MiB, eight times the cap) so that the cap, never
// the clock, ends it: an unenforced cap returns "survived".
export default async () => {
  const big = "x".repeat(64 * 1024);
  for (let i = 0; i < 1024; i++) await collections.put("flood", "k" + i, big);
  return "survived";
};
