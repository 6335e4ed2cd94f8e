/**
 * An amount of money as people in Uruguay type it, read the same on the Spanish
 * and the English pages (docs/site.md "Adjust an amount"): "25.000", "25.000,50",
 * "25000,5" and "25000" mean what they mean in Montevideo, and "25,000.50", as an
 * English reader writes it, is read too. The rule, one for both languages:
 *
 * - spaces (also the no-break and narrow ones) and a leading `$` are ignored;
 * - a separator (`.` or `,`) followed by exactly three digits is a thousands
 *   separator, wherever it is; such groups must follow 1–3 leading digits (not
 *   `0`), all with the same separator (`25.000.000`; `2.50.000` is refused);
 * - the last separator, when followed by any other number of digits (one, two, or
 *   four and more), is the decimal separator: `25,5` and `25.5` are 25.5 in both
 *   languages (the Uruguayan decimal comma, or a calculator's point); a thousands
 *   separator before it must be the other symbol (`25.000,50`, `25,000.50`);
 * - anything else (`25.`, `1,2,3`, `25,5.000`, a sign, letters) is not an amount.
 *
 * So "1.500" is one thousand five hundred, never one and a half, in both
 * languages: an amount of pesos is not written with three decimals, a thousands separator is.
 */

/** The amount as the API takes it (`1234.56`: digits and a decimal point), or null when `typed` is not an amount. */
export function parseAmount(typed: string): string | null {
  const text = typed.replace(/[\s\u00a0\u202f]/g, "").replace(/^\$/, "");
  if (!/^[0-9][0-9.,]*$/.test(text)) return null;
  const last = Math.max(text.lastIndexOf("."), text.lastIndexOf(","));
  let whole = text;
  let decimals = "";
  if (last >= 0 && text.length - last - 1 !== 3) {
    // The decimal separator: one, two, four or more digits after it (none: "25." is refused).
    decimals = text.slice(last + 1);
    whole = text.slice(0, last);
    if (!/^[0-9]+$/.test(decimals)) return null;
  }
  let digits: string;
  if (/^[0-9]+$/.test(whole)) digits = whole;
  else {
    // Thousands: 1–3 leading digits, then groups of three, one separator, not the decimal one.
    const grouped = /^[1-9][0-9]{0,2}(?:([.,])[0-9]{3})(?:\1[0-9]{3})*$/.exec(whole);
    if (grouped === null || (decimals !== "" && grouped[1] === text[last])) return null;
    digits = whole.replace(/[.,]/g, "");
  }
  const integer = digits.replace(/^0+(?=[0-9])/, "");
  const fraction = decimals.replace(/0+$/, "");
  return fraction === "" ? integer : `${integer}.${fraction}`;
}
