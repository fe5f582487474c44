const FACTORS: Record<string, number> = { m: 1, km: 1000, mi: 1609.344, ft: 0.3048 };

export default function convert(input: { value: number; from: string; to: string }) {
  const v = (input.value * FACTORS[input.from]) / FACTORS[input.to];
  return { type: "stat", value: v.toFixed(3), label: `${input.from} → ${input.to}` };
}
