/**
 * Numbers, money and dates for display, by the platform's `Intl` in the page's
 * locale ("$ 31.178", "159,05", "1 de enero de 2026" in Spanish; "$31,178",
 * "159.05", "January 1, 2026" in English). The same code runs in the build and in
 * the page script.
 *
 * Precision comes from the data: a value shows the decimals its source text gives,
 * at most two, and two when it gives one (money is written in cents: "27.626,30"),
 * so a legal minimum of 154.67 is never shown as 155. The API and the downloads
 * give every value exactly as published.
 */
import { LOCALES, type Lang } from "../../core/i18n.js";

/** The decimals a value's text gives (`"154.67"` → 2, `"31178"` → 0), as displayed: 0 or 2 for money. */
export function displayDecimals(text: string, money: boolean): number {
  const dot = text.indexOf(".");
  const given = dot < 0 ? 0 : text.length - dot - 1;
  const capped = Math.min(2, given);
  return money && capped === 1 ? 2 : capped;
}

/** True when `unit` is an ISO 4217 currency code `Intl` knows ("UYU"). */
function isCurrency(unit: string): boolean {
  if (!/^[A-Z]{3}$/.test(unit)) return false;
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: unit });
    return true;
  } catch {
    return false;
  }
}

/** Display formatting for one language and one unit. */
export class Formatter {
  readonly locale: string;
  readonly money: boolean;
  private readonly _values = new Map<number, Intl.NumberFormat>();
  private readonly _changes = new Map<number, Intl.NumberFormat>();
  private readonly _computed = new Map<string, Intl.NumberFormat>();
  private readonly _plain: Intl.NumberFormat;
  private readonly _percent: Intl.NumberFormat;
  private readonly _long: Intl.DateTimeFormat;
  private readonly _medium: Intl.DateTimeFormat;

  private readonly _small: Intl.NumberFormat;
  private readonly _smallPercent: Intl.NumberFormat;
  private readonly _period: Intl.DateTimeFormat | null;
  private readonly _shortPeriod: Intl.DateTimeFormat | null;

  private readonly _declaredPercent: Intl.NumberFormat | null;

  /**
   * `period`: the rhythm of an indicator whose dates name the period a value refers
   * to (`display.date` "period"): its dates then read as that period ("julio de
   * 2026"), not as its first day. Null for dates that are days. `changeDecimals`:
   * the decimals of a relative change the indicator declares (`display.changeDecimals`:
   * the CPI's two, as INE publishes its variations); null: one, two under 1 %.
   */
  constructor(
    readonly lang: Lang,
    readonly unit: string,
    readonly period: string | null = null,
    readonly changeDecimals: number | null = null,
  ) {
    this.locale = LOCALES[lang];
    this.money = isCurrency(unit);
    this._plain = new Intl.NumberFormat(this.locale, { maximumFractionDigits: 2 });
    // Below 0.01 two decimals would say 0: three significant digits say how small.
    this._small = new Intl.NumberFormat(this.locale, { maximumSignificantDigits: 3 });
    this._percent = new Intl.NumberFormat(this.locale, { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" });
    // A monthly change of an index is a fraction of a percent: two decimals, as INE gives.
    this._smallPercent = new Intl.NumberFormat(this.locale, { style: "percent", maximumFractionDigits: 2, signDisplay: "exceptZero" });
    this._declaredPercent =
      changeDecimals === null ? null : new Intl.NumberFormat(this.locale, { style: "percent", minimumFractionDigits: changeDecimals, maximumFractionDigits: changeDecimals, signDisplay: "exceptZero" });
    const months = period === "monthly" || period === "quarterly" || period === "semiannual";
    this._period = months ? new Intl.DateTimeFormat(this.locale, { month: "long", year: "numeric", timeZone: "UTC" }) : null;
    this._shortPeriod = months ? new Intl.DateTimeFormat(this.locale, { month: "short", year: "numeric", timeZone: "UTC" }) : null;
    // Dates are calendar days: formatted in UTC so no time zone can shift them.
    this._long = new Intl.DateTimeFormat(this.locale, { dateStyle: "long", timeZone: "UTC" });
    this._medium = new Intl.DateTimeFormat(this.locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  }

  private _numberFormat(cache: Map<number, Intl.NumberFormat>, decimals: number, signed: boolean): Intl.NumberFormat {
    let format = cache.get(decimals);
    if (format === undefined) {
      format = new Intl.NumberFormat(this.locale, {
        ...(this.money ? { style: "currency", currency: this.unit, currencyDisplay: "narrowSymbol" } : {}),
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        ...(signed ? { signDisplay: "exceptZero" } : {}),
      });
      cache.set(decimals, format);
    }
    return format;
  }

  /** A value as its source wrote it (`"154.67"`), in the unit: "$ 154,67". */
  value(text: string): string {
    const n = Number(text);
    if (n !== 0 && Math.abs(n) < 0.01 && !this.money) return this._small.format(n);
    return this._numberFormat(this._values, displayDecimals(text, this.money), false).format(Number(text));
  }

  /** The difference between two values' texts, signed: "+$ 946" / "−$ 12,50". */
  change(from: string, to: string): string {
    const decimals = Math.max(displayDecimals(from, this.money), displayDecimals(to, this.money));
    const difference = Number(to) - Number(from);
    // Rounded to the cents shown, so 0.1 + 0.2 style noise never prints.
    return this._numberFormat(this._changes, decimals, true).format(Math.round(difference * 100) / 100);
  }

  /** A relative change, "+3,1 %"; null when it is undefined (from 0). */
  percent(from: string, to: string): string | null {
    const base = Number(from);
    if (base === 0) return null;
    return this.changeRatio((Number(to) - base) / base);
  }

  /**
   * A relative change given as a ratio (0.0427): with the declared decimals
   * ("+4,27 %"), else one, and two under 1 % ("+3,1 %", "+0,07 %").
   */
  changeRatio(ratio: number): string {
    return (this._declaredPercent ?? (Math.abs(ratio) < 0.01 ? this._smallPercent : this._percent)).format(ratio);
  }

  /**
   * A computed number (an answer to a question about time, which has no source
   * text to take decimals from) with at most `digits` decimals: in `currency`
   * when given ("$ 31.178,00": a currency's own decimals at least), else plain.
   */
  computed(value: number, digits: number, currency: string | null = null): string {
    return this._computedFormat(currency === null ? { maximumFractionDigits: digits } : { style: "currency", currency, currencyDisplay: "narrowSymbol", maximumFractionDigits: digits }).format(value);
  }

  /** A computed percentage, `value` in percent (3.14 → "+3,1 %" with one digit), at most `digits` decimals; `signed`: "+" before a rise. */
  computedPercent(value: number, digits: number, signed = true): string {
    return this._computedFormat({ style: "percent", maximumFractionDigits: digits, signDisplay: signed ? "exceptZero" : "auto" }).format(value / 100);
  }

  /** One format per set of options, made once. */
  private _computedFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
    const key = JSON.stringify(options);
    let format = this._computed.get(key);
    if (format === undefined) {
      format = new Intl.NumberFormat(this.locale, options);
      this._computed.set(key, format);
    }
    return format;
  }

  /** A plain number, for axis ticks: "40.000". */
  number(value: number): string {
    return this._plain.format(value);
  }

  /** The unit's symbol for an axis: "$" for pesos, else the unit itself. */
  get unitSymbol(): string {
    if (!this.money) return this.unit;
    const parts = this._numberFormat(this._values, 0, false).formatToParts(0);
    return parts.find((p) => p.type === "currency")?.value ?? this.unit;
  }

  /** "1 de enero de 2026" / "January 1, 2026". */
  date(iso: string): string {
    return this._long.format(new Date(`${iso}T00:00:00Z`));
  }

  /** "1 ene 2026" / "Jan 1, 2026": for tables. */
  shortDate(iso: string): string {
    return this._medium.format(new Date(`${iso}T00:00:00Z`));
  }

  /**
   * A point's date as a reader says it: the period it refers to for period-dated
   * indicators ("julio de 2026", "jul–sept 2026", "2026"), else the day ("1 de enero de 2026").
   */
  pointDate(iso: string): string {
    return this._periodText(iso, this._period) ?? this.date(iso);
  }

  /** {@link pointDate}, short, for tables: "jul 2026" / "1 ene 2026". */
  pointShortDate(iso: string): string {
    return this._periodText(iso, this._shortPeriod) ?? this.shortDate(iso);
  }

  private _periodText(iso: string, format: Intl.DateTimeFormat | null): string | null {
    if (this.period === "annual") return iso.slice(0, 4);
    if (format === null) return null;
    const start = new Date(`${iso}T00:00:00Z`);
    if (this.period === "monthly") return format.format(start);
    const months = this.period === "quarterly" ? 3 : 6;
    const last = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months - 1, 1));
    return format.formatRange(start, last);
  }

  /** A year for an axis tick. */
  year(year: number): string {
    return String(year);
  }
}
