// weather: TypeScript-only syntax (types, interfaces, enums, generics,
// `as`, `satisfies`, decorators, overloads, declare) before each call, so
// that esbuild's JavaScript lines differ from these lines.
interface Input {
  city: string;
  units?: "metric" | "imperial";
}

type Forecast = { current: { temperature_2m: number } };

enum Provider {
  OpenMeteo = "https://api.open-meteo.com",
  Backup = "https://backup.weather.example",
}

declare const DEBUG: boolean;

function logged(value: unknown, context: ClassMethodDecoratorContext) {
  return value;
}

class Client<T extends object> {
  private readonly base: string;
  constructor(base: string) {
    this.base = base;
  }
  @logged
  async get<R = T>(path: string): Promise<R> {
    const res = await http.fetch(`${Provider.Backup}/v1/${path}`);
    return (await res.json()) as R;
  }
}

function pick(a: string): string;
function pick(a: string, b?: string): string {
  return b ?? a;
}

export default async function weather(input: Input): Promise<{ type: string; value: number }> {
  const settings = { retries: 2 } satisfies Record<string, number>;
  const res = await http.fetch<Forecast>("https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41");
  const data = (await res.json()) as Forecast;
  const label = <string>pick(input.city);
  const extra = await http.fetch(`https://geo.example.org/${label as string}?r=${settings.retries}`);
  const cached: Forecast | undefined = await collections.get("forecasts", input.city);
  await new Client<Forecast>(Provider.OpenMeteo).get<Forecast>("x");
  return { type: "stat", value: cached?.current.temperature_2m ?? data.current.temperature_2m + (extra.ok ? 0 : 1) };
}
