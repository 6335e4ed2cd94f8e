/**
 * "Adjust an amount" (`/api/v1/adjust`): the form on the home page and on the
 * pages of the indicators that adjust (src/site/site.ts `adjustSection`), and the
 * answer the page script writes from the API's own JSON answer, the API address
 * beside it. Without a script the form asks the API itself (a GET form).
 */
import { html, type SafeHtml } from "../../core/html.js";
import type { Lang } from "../../core/i18n.js";
import { Formatter } from "./format.js";
import type { Messages } from "./messages/index.js";
import { apiEquivalent } from "./series-view.js";

/** One end of the API's answer (src/core/adjust.ts `AdjustEnd`). */
interface AnswerEnd {
  readonly date: string;
  readonly point: string;
  readonly value: number;
  readonly covers: { readonly from: string; readonly to: string };
}

/** The API's JSON answer, as far as the page reads it. */
export interface AdjustAnswer {
  readonly data: { readonly amount: number; readonly from: AnswerEnd; readonly to: AnswerEnd; readonly factor: number; readonly adjusted: number; readonly in_units: number | null };
  readonly meta: { readonly units_of: { readonly es: string; readonly en: string } | null };
}

const SLOT = "\u0000";

/** A sentence with `slot` where the message has `SLOT` (the message is escaped, the slot is markup). */
function slotted(text: string, slot: SafeHtml): SafeHtml {
  const [before = "", after = ""] = text.split(SLOT);
  return html`${before}${slot}${after}`;
}

/**
 * The answer as the page shows it: the amount and its adjustment, the two values
 * of `by` (the label of the chosen option) with the days each covers and the
 * factor, the amount in the unit of account when there is one, and the address.
 */
export function adjustAnswerView(lang: Lang, m: Messages, byLabel: string, answer: AdjustAnswer, url: string): SafeHtml {
  const f = new Formatter(lang, "UYU");
  const months = new Formatter(lang, "UYU", "monthly");
  const { amount, from, to, factor, adjusted } = answer.data;
  const money = (value: number) => f.computed(value, 2, "UYU");
  // A whole calendar month (a monthly index's point) is said as the month.
  const wholeMonth = (e: AnswerEnd) => e.covers.from.endsWith("-01") && e.covers.to.slice(0, 7) === e.covers.from.slice(0, 7) && new Date(`${e.covers.to}T00:00:00Z`).getUTCDate() === new Date(Date.UTC(Number(e.covers.to.slice(0, 4)), Number(e.covers.to.slice(5, 7)), 0)).getUTCDate();
  const covers = (e: AnswerEnd) => (wholeMonth(e) ? months.pointDate(e.covers.from) : m.adjustCovers(f.date(e.covers.from), f.date(e.covers.to)));
  const result = html`<strong><data value="${String(adjusted)}">${money(adjusted)}</data></strong>`;
  const unit = answer.meta.units_of?.[lang];
  const units = answer.data.in_units;
  return html`<p>${slotted(m.adjustAnswer(money(amount), f.date(from.date), SLOT, f.date(to.date)), result)}</p>
<p class="note">${m.adjustValues(byLabel, f.computed(from.value, 4), covers(from), f.computed(to.value, 4), covers(to), f.computed(factor, 7))}</p>${
    unit === undefined || units === null
      ? ""
      : // The amount in units on the first date, and the same number of units in pesos on the second (× its value there).
        html`<p>${m.adjustInUnits(money(amount), f.computed(units, 4), unit)} ${m.adjustFromUnits(f.computed(amount, 4), unit, f.date(to.date), money(amount * to.value))}</p>`
  }${apiEquivalent(m, [url])}`;
}

/** Wires the form: each submission asks the API and shows its answer (or its 400's detail). */
export function setupAdjust(lang: Lang, m: Messages): void {
  const form = document.getElementById("adjust-form");
  const out = document.getElementById("adjust-answer");
  const by = document.getElementById("adjust-by");
  if (!(form instanceof HTMLFormElement) || out === null || !(by instanceof HTMLSelectElement)) return;
  const fields = ["adjust-from", "adjust-to"].map((id) => document.getElementById(id)).filter((e): e is HTMLInputElement => e instanceof HTMLInputElement);
  // The dates a chosen sub-series covers bound the date fields.
  const bound = () => {
    const option = by.options[by.selectedIndex];
    for (const field of fields) {
      field.min = option?.dataset.first ?? "";
      field.max = option?.dataset.last ?? "";
    }
  };
  by.addEventListener("change", bound);
  bound();
  let asked = 0;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const params = new URLSearchParams([...new FormData(form)].map(([name, value]) => [name, typeof value === "string" ? value : value.name]));
    const path = `${form.getAttribute("action") ?? ""}?${params.toString().replaceAll("%3A", ":")}`;
    const url = `${form.dataset.baseUrl ?? ""}${path}`;
    const label = by.options[by.selectedIndex]?.text ?? by.value;
    const mine = ++asked;
    void fetch(path)
      .then(async (response) => {
        const body = (await response.json()) as AdjustAnswer & { error?: { detail?: string } };
        if (mine !== asked) return;
        out.innerHTML = response.ok ? adjustAnswerView(lang, m, label, body, url).html : html`<p>${m.adjustFailed(body.error?.detail ?? String(response.status))}</p>`.html;
      })
      .catch(() => {
        if (mine === asked) out.textContent = m.selectionFailed;
      });
  });
}
