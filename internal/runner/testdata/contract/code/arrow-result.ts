const when = (at: string) =>
  new Map([["at", at]]);

export default async (input: { at?: string }) => ({
  at: input?.at ?? "noon",
  when: when("noon"),
});
