const big = 0xFFn;
const re = /(?<y>\d{4})/dsu;
export const tools = {
  scan: {
    description: "Scan",
    run: async ({ s }) => {
      outer: for (const c of s) { for (;;) { if (c) break outer; } }
      try { return re.exec(s)?.groups?.y ?? String(big); } catch { return null; }
    },
  },
};
