// One class per provider; a static registry filled in a static block.
export enum Market {
  Global,
  China,
}

export type ProviderName = "mapbox" | "here" | "tomtom";
export type GeocodeUrl = `https://${string}/${string}`;

export abstract class Geocoder {
  static readonly registry = new Map<ProviderName, (m: Market) => Geocoder>();
  static create(name: ProviderName, market = Market.Global): Geocoder {
    const make = Geocoder.registry.get(name);
    if (!make) throw new Error(`no geocoder ${name}`);
    return make(market);
  }

  protected abstract get origin(): string;
  protected abstract path(q: string): string;

  url(q: string): GeocodeUrl {
    return `${this.origin}${this.path(q)}` as GeocodeUrl;
  }
}

export class Mapbox extends Geocoder {
  #market: Market;
  constructor(market: Market) {
    super();
    this.#market = market;
  }
  protected get origin() {
    return this.#market === Market.China ? "https://api.mapbox.cn" : "https://api.mapbox.com";
  }
  protected path(q: string) {
    return `/search/geocode/v6/forward?q=${encodeURIComponent(q)}`;
  }
}

export class Here extends Geocoder {
  protected get origin() {
    return "https://geocode.search.hereapi.com";
  }
  protected path(q: string) {
    return `/v1/geocode?q=${encodeURIComponent(q)}`;
  }
}

export class TomTom extends Here {
  static {
    Geocoder.registry.set("tomtom", () => new TomTom());
  }
  protected get origin() {
    return "https://api.tomtom.com";
  }
  protected path(q: string) {
    return `/search/2/geocode/${encodeURIComponent(q)}.json`;
  }
}

Geocoder.registry.set("mapbox", (m) => new Mapbox(m));
Geocoder.registry.set("here", () => new Here());
