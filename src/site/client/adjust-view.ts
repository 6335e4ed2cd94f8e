/**
 * "Adjust an amount" (`/api/v1/adjust`): the form on the home page and on the
 * pages of the indicators that adjust (src/site/site.ts `adjustSection`), and the
 * answer the page script writes from the API's own JSON answer, the API address
 * beside it. Without a script the form asks the API itself (a GET form).
 */
import { withQuery } from "../../core/text/url.js";
import { TODAY_UTC_OFFSET_SECONDS } from "../../core/answer/contract.js";
import { dayOfTime } from "../../core/time/dates.js";
import { html, type SafeHtml } from "../../core/text/html.js";
import type { Lang } from "../../core/text/i18n.js";
import { parseAmount } from "./amount.js";
import { Formatter } from "./format.js";
import type { Messages } from "./messages/index.js";
import { hereOrigin, publicOrigin } from "./origin.js";
import { apiEquivalent } from "./series-view.js";

/** One end of the API's answer (src/core/time/adjust.ts `AdjustEnd`). */
interface AnswerEnd {
  readonly date: string;
  readonly point: string;
  readonly value: number;
  readonly covers: { readonly from: string; readonly to: string };
}

/** What `meta.used` says of one end: the date of the value used and, when it is not the date's own, why. */
export interface UsedEnd {
  readonly date: string;
  readonly reason: "overdue" | "pending" | null;
  readonly due: string | null;
}

/** The API's JSON answer, as far as the page reads it. */
export interface AdjustAnswer {
  readonly data: { readonly amount: number; readonly from: AnswerEnd; readonly to: AnswerEnd; readonly factor: number; readonly adjusted: number; readonly in_units: number | null };
  readonly meta: {
    readonly units_of: { readonly es: string; readonly en: string } | null;
    readonly used: { readonly from: UsedEnd; readonly to: UsedEnd };
    readonly checked: string | null;
    readonly data_changed: string;
  };
}

const SLOT = "\u0000";

/** A sentence with `slot` where the message has `SLOT` (the message is escaped, the slot is markup). */
function slotted(text: string, slot: SafeHtml): SafeHtml {
  const [before = "", after = ""] = text.split(SLOT);
  return html`${before}${slot}${after}`;
}

/**
 * The answer as the page shows it: the amount and its adjustment, the two values
 * of `by` (the label of the chosen option) with the date of each (the days it
 * covers, or since when it is in force) and the factor; for an end whose date has
 * no value of its own, which value was used and why; the amount in the unit of
 * account when there is one, and the address (`path` on the site at `origin`).
 */
export function adjustAnswerView(lang: Lang, m: Messages, byLabel: string, answer: AdjustAnswer, path: string, origin = ""): SafeHtml {
  const f = Formatter.get(lang, "UYU");
  const months = Formatter.get(lang, "UYU", "monthly");
  const { amount, from, to, factor, adjusted } = answer.data;
  const { used, checked, data_changed: changed } = answer.meta;
  const money = (value: number) => f.computed(value, 2, "UYU");
  // A whole calendar month (a monthly index's point) is said as the month.
  const wholeMonth = (e: AnswerEnd) => e.covers.from.endsWith("-01") && e.covers.to.slice(0, 7) === e.covers.from.slice(0, 7) && new Date(`${e.covers.to}T00:00:00Z`).getUTCDate() === new Date(Date.UTC(Number(e.covers.to.slice(0, 4)), Number(e.covers.to.slice(5, 7)), 0)).getUTCDate();
  const covers = (e: AnswerEnd) => (wholeMonth(e) ? months.pointDate(e.covers.from) : m.adjustCovers(f.date(e.covers.from), f.date(e.covers.to)));
  // A value in force on a day after the last look (a stepwise value, as `at` answers): since when, and what is known of how current it is.
  const look = m.look(checked === null ? null : { day: f.date(checked) }, f.date(changed));
  const when = (e: AnswerEnd, u: UsedEnd) => (u.reason === null && e.date > e.covers.to ? m.adjustInForce(f.date(e.point), look) : covers(e));
  const missing = (e: AnswerEnd, u: UsedEnd) =>
    u.reason === null ? "" : html`<p class="note adjust-missing">${m.adjustMissing(u.reason, f.date(e.date), wholeMonth(e) ? months.pointDate(e.point) : f.date(e.point), u.due === null ? null : f.date(u.due))}</p>`;
  const result = html`<strong><data value="${String(adjusted)}">${money(adjusted)}</data></strong>`;
  const unit = answer.meta.units_of?.[lang];
  const units = answer.data.in_units;
  return html`<p>${slotted(m.adjustAnswer(money(amount), f.date(from.date), SLOT, f.date(to.date)), result)}</p>
<p class="note">${m.adjustValues(byLabel, f.computed(from.value, 4), when(from, used.from), f.computed(to.value, 4), when(to, used.to), f.computed(factor, 7))}</p>${missing(from, used.from)}${
    from.date === to.date ? "" : missing(to, used.to)
  }${
    unit === undefined || units === null
      ? ""
      : // The amount in units on the first date, and the same number of units in pesos on the second (× its value there).
        html`<p>${m.adjustInUnits(money(amount), f.computed(units, 4), unit)} ${m.adjustFromUnits(f.computed(amount, 4), unit, f.date(to.date), money(amount * to.value))}</p>`
  }${apiEquivalent(m, origin, [path])}`;
}

/**
 * Today for the calculator: the reader's day (the browser's local date), but never
 * after the day in Montevideo, which is the API's today (src/api/adjust.ts
 * `adjustToday`): a reader east of Uruguay late in its evening is already in a day
 * no value can be known for yet, and the API would refuse it.
 */
export function calculatorToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = `${String(now.getFullYear()).padStart(4, "0")}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  const montevideo = dayOfTime(Math.floor(now.getTime() / 1000) + TODAY_UTC_OFFSET_SECONDS);
  return local < montevideo ? local : montevideo;
}

/** The same day `years` earlier (29 February → 28 February). */
function yearsBefore(date: string, years: number): string {
  const year = String(Number(date.slice(0, 4)) - years).padStart(4, "0");
  const day = date.slice(5) === "02-29" ? "02-28" : date.slice(5);
  return `${year}-${day}`;
}

/** What the API's error says, as far as the page reads it: its code and the parameter its `detail` names first. */
interface ApiFault {
  readonly status: number;
  readonly code: string | null;
  readonly parameter: string | null;
}

/**
 * The message of a fault in the page's language: never the API's own text (it is
 * English), but the fault told from its code, the parameter it names and what
 * the page knows of the question (the dates, the first value, today).
 */
export function adjustFaultText(m: Messages, fault: ApiFault, asked: { readonly amount: string; readonly from: string; readonly to: string; readonly first: string; readonly today: string; readonly by: string }, f: Formatter): string {
  if (fault.status === 429 || fault.code === "too_many_requests") return m.adjustBusy;
  if (fault.code !== "bad_request") return m.adjustFailed(String(fault.status));
  if (fault.parameter === "amount") return m.adjustBadAmount(asked.amount);
  if (fault.parameter === "from" || fault.parameter === "to") {
    const date = fault.parameter === "from" ? asked.from : asked.to;
    if (date > asked.today) return m.adjustAfterToday(fault.parameter, f.date(asked.today));
    if (date < asked.first) return m.adjustBeforeFirst(fault.parameter, asked.by, f.date(asked.first));
    return m.adjustNoValue(fault.parameter, asked.by);
  }
  return m.adjustFailed(String(fault.status));
}

/**
 * Wires the form: the dates accept today (the reader's) and default to it (the
 * date from five years before); each submission reads the amount as people in
 * Uruguay write it (src/site/client/amount.ts), asks the API and shows its answer,
 * or what was wrong in the page's language.
 */
export function setupAdjust(lang: Lang, m: Messages): void {
  const form = document.getElementById("adjust-form");
  const out = document.getElementById("adjust-answer");
  const by = document.getElementById("adjust-by");
  const amount = document.getElementById("adjust-amount");
  const fromField = document.getElementById("adjust-from");
  const toField = document.getElementById("adjust-to");
  if (!(form instanceof HTMLFormElement) || out === null || !(by instanceof HTMLSelectElement) || !(amount instanceof HTMLInputElement)) return;
  if (!(fromField instanceof HTMLInputElement) || !(toField instanceof HTMLInputElement)) return;
  const f = Formatter.get(lang, "UYU");
  const today = calculatorToday();
  // The page reads the amount itself: the pattern that keeps a form without a script to what the API reads goes.
  amount.removeAttribute("pattern");
  const first = () => by.options[by.selectedIndex]?.dataset.first ?? "";
  // The dates a chosen sub-series has values for, up to today, bound the date fields.
  const bound = () => {
    for (const field of [fromField, toField]) {
      field.min = first();
      field.max = today;
    }
  };
  by.addEventListener("change", bound);
  bound();
  toField.value = today;
  const back = yearsBefore(today, 5);
  fromField.value = back < first() ? first() : back;
  const show = (text: string) => {
    out.innerHTML = html`<p>${text}</p>`.html;
  };
  let asked = 0;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = amount.value;
    const value = parseAmount(typed);
    const mine = ++asked;
    if (value === null) {
      show(m.adjustBadAmount(typed.trim()));
      return;
    }
    const path = withQuery(form.getAttribute("action") ?? "", [
      ["amount", value],
      ["from", fromField.value],
      ["to", toField.value],
      ["by", by.value],
    ]);
    const label = by.options[by.selectedIndex]?.text ?? by.value;
    const question = { amount: typed.trim(), from: fromField.value, to: toField.value, first: first(), today, by: label };
    void fetch(path)
      .then(async (response) => {
        const body = (await response.json().catch(() => ({}))) as Partial<AdjustAnswer> & { error?: { code?: string; detail?: string } };
        if (mine !== asked) return;
        if (response.ok) out.innerHTML = adjustAnswerView(lang, m, label, body as AdjustAnswer, path, hereOrigin(publicOrigin() ?? "")).html;
        else {
          const parameter = /^([a-z_]+):/.exec(body.error?.detail ?? "")?.[1] ?? null;
          show(adjustFaultText(m, { status: response.status, code: body.error?.code ?? null, parameter }, question, f));
        }
      })
      .catch(() => {
        if (mine === asked) show(m.adjustOffline);
      });
  });
}
