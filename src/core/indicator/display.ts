/**
 * What an indicator's numbers mean to a reader, declared in its `indicator.json`
 * (`display`, validated in src/source/metadata.ts) so that no code asks which
 * indicator it has: the site, the messages and the open-data formats read this.
 * Every default is neutral: a date is a date, a 0 is a 0, the value is a value.
 */
import type { Lang, Localized } from "../text/i18n.js";

/**
 * What a point's date means:
 * - `effective`: the day the value takes effect (it holds until the next one: a tariff, a legal minimum);
 * - `period`: the first day of the period the value refers to, one rhythm long (a monthly index), published later;
 * - `date`: just the date of the observation (the neutral default).
 */
export const DATE_MEANINGS = ["date", "effective", "period"] as const;
export type DateMeaning = (typeof DATE_MEANINGS)[number];

export const SCALES = ["linear", "log"] as const;
export type Scale = (typeof SCALES)[number];

export interface Display {
  readonly date: DateMeaning;
  /** What a value of 0 means when it is not a quantity (a service without charge, say), in each language; null: a 0 is a 0. */
  readonly zero: Localized | null;
  /** The plural noun of the compared facet's values, in each language; null: the facet's title. */
  readonly compared: Localized | null;
  /** The noun of a value, in each language; null: "valor" / "value". */
  readonly value: Localized | null;
  /** The unit as a reader writes it ("índice (base oct. 2022 = 100)"); null: the currency's symbol, or the unit code. */
  readonly unit: Localized | null;
  /** The language the points' notes (the CSV's `note` column) are written in. */
  readonly noteLanguage: Lang;
  /** How the value axis reads best: `log` for values spanning orders of magnitude (only drawn so when every value is positive). */
  readonly scale: Scale;
  /**
   * The indicator note (index into \`notes\`) that says what is known after its
   * newest values (a change the data does not have yet): the page links it where
   * a value's coverage has ended. Null: the page links the notes.
   */
  readonly endNote: number | null;
  /**
   * The decimals of a relative change ("+4,27 %"), as the publisher gives its own
   * variations; null: one, and two under 1 % ("+0,07 %").
   */
  readonly changeDecimals: number | null;
  /**
   * The decimals every value is shown with, as the publisher gives them (the UI's
   * four: "$ 6,6378"), in cards, tables, tooltips and changes; null: those of each
   * value's text, at most two (src/site/client/format.ts).
   */
  readonly decimals: number | null;
}

/** The neutral display: what an indicator without a `display` block gets. */
export const NEUTRAL_DISPLAY: Display = { date: "date", zero: null, compared: null, value: null, unit: null, noteLanguage: "en", scale: "linear", endNote: null, changeDecimals: null, decimals: null };
