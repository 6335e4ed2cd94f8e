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
import { LOCALES, type Lang } from "../../core/text/i18n.js";
import type { Display } from "../../core/indicator/display.js";

/**
 * The decimals a value's text gives (`"154.67"` → 2, `"31178"` → 0), as displayed:
 * 0 or 2 for money; `declared`, the decimals the indicator is published with
 * (`display.decimals`: the UI's four), replaces that reading when given.
 */
export function displayDecimals(text: string, money: boolean, declared: number | null = null): number {
  if (declared !== null) return declared;
  const dot = text.indexOf(".");
  const given = dot < 0 ? 0 : text.length - dot - 1;
  const capped = Math.min(2, given);
  return money && capped === 1 ? 2 : capped;
}

/**
 * The minus sign of a formatted number: `Intl` writes the hyphen-minus (U+002D)
 * in both locales; typography (and the Unicode Standard, §6.2 "Dashes") writes a
 * negative number with the minus sign U+2212, which screen readers read as
 * "minus" and which does not break a line after it.
 */
export function trueMinus(text: string): string {
  return text.replace(/-/g, "\u2212");
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
/** The formatters made so far, by their arguments ({@link Formatter.get}). */
const FORMATTERS = new Map<string, Formatter>();

/** A format's most fraction digits, read once per format (`resolvedOptions` makes a new object at every call). */
const FRACTION_DIGITS = new WeakMap<Intl.NumberFormat, number>();

function fractionDigits(format: Intl.NumberFormat): number {
  let digits = FRACTION_DIGITS.get(format);
  if (digits === undefined) {
    digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    FRACTION_DIGITS.set(format, digits);
  }
  return digits;
}

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
  private readonly _longTexts = new Map<string, string>();
  private readonly _mediumTexts = new Map<string, string>();

  private readonly _small: Intl.NumberFormat;
  private readonly _smallPercent: Intl.NumberFormat;
  private readonly _period: Intl.DateTimeFormat | null;
  private readonly _shortPeriod: Intl.DateTimeFormat | null;

  private readonly _declaredPercent: Intl.NumberFormat | null;
  private readonly _significantPercent: Intl.NumberFormat;

  /**
   * `period`: the rhythm of an indicator whose dates name the period a value refers
   * to (`display.date` "period"): its dates then read as that period ("julio de
   * 2026"), not as its first day. Null for dates that are days. `changeDecimals`:
   * the decimals of a relative change the indicator declares (`display.changeDecimals`:
   * the CPI's two, as INE publishes its variations); null: one, two under 1 %.
   * `decimals`: the decimals the indicator's values are published with
   * (`display.decimals`: the UI's four), for every value and change; null: those
   * of each value's text, at most two.
   */
  constructor(
    readonly lang: Lang,
    readonly unit: string,
    readonly period: string | null = null,
    readonly changeDecimals: number | null = null,
    readonly decimals: number | null = null,
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
    // A change too small for the shown decimals (a UI's day, +0,0015 %) keeps two significant digits rather than read as 0.
    this._significantPercent = new Intl.NumberFormat(this.locale, { style: "percent", maximumSignificantDigits: 2, signDisplay: "exceptZero" });
    const months = period === "monthly" || period === "quarterly" || period === "semiannual";
    this._period = months ? new Intl.DateTimeFormat(this.locale, { month: "long", year: "numeric", timeZone: "UTC" }) : null;
    this._shortPeriod = months ? new Intl.DateTimeFormat(this.locale, { month: "short", year: "numeric", timeZone: "UTC" }) : null;
    // Dates are calendar days: formatted in UTC so no time zone can shift them.
    this._long = new Intl.DateTimeFormat(this.locale, { dateStyle: "long", timeZone: "UTC" });
    this._medium = new Intl.DateTimeFormat(this.locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  }

  /**
   * The formatter of an indicator's values as its `display` declares them: its
   * dates read as periods when they are (`display.date` "period": `rhythm`), its
   * changes and values with their declared decimals. `period` overrides the
   * rhythm (a derived chart of one value per month).
   */
  static of(lang: Lang, unit: string, display: Display, rhythm: string, period?: string | null): Formatter {
    return Formatter.get(lang, unit, period !== undefined ? period : display.date === "period" ? rhythm : null, display.changeDecimals, display.decimals);
  }

  /**
   * The formatter of these arguments (the constructor's), made once and shared:
   * making one makes about ten `Intl` formats, which cost more than formatting a
   * page's numbers with them (the build renders thousands of pages), and a
   * formatter holds nothing of the page it formats.
   */
  static get(lang: Lang, unit: string, period: string | null = null, changeDecimals: number | null = null, decimals: number | null = null): Formatter {
    const key = `${lang}\u0000${unit}\u0000${period ?? ""}\u0000${changeDecimals ?? ""}\u0000${decimals ?? ""}`;
    let shared = FORMATTERS.get(key);
    if (shared === undefined) {
      shared = new Formatter(lang, unit, period, changeDecimals, decimals);
      FORMATTERS.set(key, shared);
    }
    return shared;
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

  /** A value as its source wrote it (`"154.67"`), in the unit: "$ 154,67" (the UI's "$ 6,6378": its declared four decimals). */
  value(text: string): string {
    const n = Number(text);
    if (this.decimals === null && n !== 0 && Math.abs(n) < 0.01 && !this.money) return trueMinus(this._small.format(n));
    return trueMinus(this._numberFormat(this._values, displayDecimals(text, this.money, this.decimals), false).format(Number(text)));
  }

  /** The decimals a change from `from` to `to` is shown with: the more precise value's. */
  private _changeDecimals(from: string, to: string): number {
    return Math.max(displayDecimals(from, this.money, this.decimals), displayDecimals(to, this.money, this.decimals));
  }

  /**
   * True when the change from `from` to `to` is nothing at the decimals the
   * values are shown with: "+$ 0,00 (0 %)" is no change to report, and the card
   * says "sin cambios" instead of printing it.
   */
  unchanged(from: string, to: string): boolean {
    const scale = 10 ** this._changeDecimals(from, to);
    return Math.round((Number(to) - Number(from)) * scale) === 0;
  }

  /** The difference between two values' texts, signed: "+$ 946" / "−$ 12,50". */
  change(from: string, to: string): string {
    const decimals = this._changeDecimals(from, to);
    const scale = 10 ** decimals;
    const difference = Number(to) - Number(from);
    // Rounded to the decimals shown, so 0.1 + 0.2 style noise never prints.
    return trueMinus(this._numberFormat(this._changes, decimals, true).format(Math.round(difference * scale) / scale));
  }

  /** A relative change, "+3,1 %"; null when it is undefined (from 0). */
  percent(from: string, to: string): string | null {
    const base = Number(from);
    if (base === 0) return null;
    return this.changeRatio((Number(to) - base) / base);
  }

  /**
   * A relative change given as a ratio (0.0427): with the declared decimals
   * ("+4,27 %"), else one, and two under 1 % ("+3,1 %", "+0,07 %"). A change
   * those decimals would show as 0 but is not (a UI's day: 0.0015 %) keeps two
   * significant digits ("+0,0015 %"): a 0 % is said only of no change.
   */
  changeRatio(ratio: number): string {
    const format = this._declaredPercent ?? (Math.abs(ratio) < 0.01 ? this._smallPercent : this._percent);
    const decimals = fractionDigits(format);
    const shownZero = ratio !== 0 && Math.round(Math.abs(ratio) * 100 * 10 ** decimals) === 0;
    return trueMinus((shownZero ? this._significantPercent : format).format(ratio));
  }

  /**
   * A computed number (an answer to a question about time, which has no source
   * text to take decimals from) with at most `digits` decimals: in `currency`
   * when given ("$ 31.178,00": a currency's own decimals at least), else plain.
   */
  computed(value: number, digits: number, currency: string | null = null): string {
    return trueMinus(this._computedFormat(currency === null ? { maximumFractionDigits: digits } : { style: "currency", currency, currencyDisplay: "narrowSymbol", maximumFractionDigits: digits }).format(value));
  }

  /** A computed percentage, `value` in percent (3.14 → "+3,1 %" with one digit), at most `digits` decimals; `signed`: "+" before a rise. */
  computedPercent(value: number, digits: number, signed = true): string {
    return trueMinus(this._computedFormat({ style: "percent", maximumFractionDigits: digits, signDisplay: signed ? "exceptZero" : "auto" }).format(value / 100));
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
    return trueMinus(this._plain.format(value));
  }

  /** The unit's symbol for an axis: "$" for pesos, else the unit itself. */
  get unitSymbol(): string {
    if (!this.money) return this.unit;
    const parts = this._numberFormat(this._values, 0, false).formatToParts(0);
    return parts.find((p) => p.type === "currency")?.value ?? this.unit;
  }

  /** "1 de enero de 2026" / "January 1, 2026". */
  date(iso: string): string {
    return this._dateText(this._longTexts, iso, this._long);
  }

  /** "1 ene 2026" / "Jan 1, 2026": for tables. */
  shortDate(iso: string): string {
    return this._dateText(this._mediumTexts, iso, this._medium);
  }

  /** `iso` in `format`, formatted once per formatter: a site's pages print the same few hundred dates over and over. */
  private _dateText(texts: Map<string, string>, iso: string, format: Intl.DateTimeFormat): string {
    let text = texts.get(iso);
    if (text === undefined) {
      text = format.format(new Date(`${iso}T00:00:00Z`));
      texts.set(iso, text);
    }
    return text;
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
