/**
 * Tooltips and keyboard reading for the charts of src/site/client/chart.ts, in the browser.
 * The chart's `circle.point` elements carry their texts as data attributes; this
 * shows them on hover, touch and arrow keys, and announces keyboard moves to
 * screen readers. Everything written into the page is set as text, never as markup.
 */

const ENHANCED = "chartEnhanced";
const KEYS = ["ArrowLeft", "ArrowRight", "Home", "End"];

/** The points in reading order: by date, then in document order (series order). */
function orderedPoints(svg: SVGSVGElement): SVGCircleElement[] {
  const points = [...svg.querySelectorAll<SVGCircleElement>("circle.point")];
  return points
    .map((point, i) => ({ point, i, date: point.dataset.date ?? "" }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.i - b.i))
    .map((entry) => entry.point);
}

/** The point's centre in viewport (client) coordinates: the chart's markup has no transforms, so the svg's CTM is enough. */
function centre(point: SVGCircleElement, matrix: DOMMatrix | null): { x: number; y: number } {
  if (matrix !== null) {
    const p = new DOMPoint(point.cx.baseVal.value, point.cy.baseVal.value).matrixTransform(matrix);
    return { x: p.x, y: p.y };
  }
  const box = point.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
}

/** The texts of one point, from its data attributes and its `<title>` (which has the page's word for "note"). */
function describe(point: SVGCircleElement): { label: string; date: string; value: string; note: string; sentence: string } {
  const label = point.dataset.label ?? "";
  const date = point.dataset.dateText ?? "";
  const value = point.dataset.valueText ?? "";
  const note = point.dataset.note ?? "";
  const title = point.querySelector("title")?.textContent ?? "";
  return { label, date, value, note, sentence: title !== "" ? title : `${label} — ${date}: ${value}${note !== "" ? `. ${note}` : ""}` };
}

function line(tag: string, className: string, text: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
}

/** Places `tooltip` above `point` (below when there is no room above), inside the chart's figure. */
function placeTooltip(tooltip: HTMLElement, svg: SVGSVGElement, point: SVGCircleElement): void {
  const figure = tooltip.offsetParent instanceof HTMLElement ? tooltip.offsetParent : (svg.parentElement ?? document.body);
  const frame = figure.getBoundingClientRect();
  const box = point.getBoundingClientRect();
  // Coordinates relative to the figure's padding box, where absolute positions start.
  const x = box.left + box.width / 2 - frame.left - figure.clientLeft;
  const y = box.top - frame.top - figure.clientTop;
  const width = tooltip.offsetWidth;
  const height = tooltip.offsetHeight;
  const left = Math.max(0, Math.min(x - width / 2, figure.clientWidth - width));
  // Above the point, or below it when there is no room above.
  const top = y - height - 8 >= 0 ? y - height - 8 : y + box.height + 8;
  tooltip.style.left = `${Math.round(left)}px`;
  tooltip.style.top = `${Math.round(top)}px`;
}

/** The tooltip's lines for `point`: its label, date and value, then its source's kind, note and revision when it has them. */
function tooltipLines(point: SVGCircleElement, texts: ReturnType<typeof describe>): HTMLElement[] {
  const lines = [line("strong", "tooltip-label", texts.label), line("span", "tooltip-date", texts.date), line("span", "tooltip-value", texts.value)];
  // The kind of the point's source ("fuente: prensa"), as the table says it.
  if (point.dataset.kind !== undefined) lines.push(line("span", "tooltip-kind", point.dataset.kind));
  if (texts.note !== "") {
    const note = line("span", "tooltip-note", texts.note);
    // A note without a translation, in the language it is written in.
    if (point.dataset.noteLang !== undefined) note.lang = point.dataset.noteLang;
    lines.push(note);
  }
  // A revised value: when it last changed and what it was (src/core/history/revised.ts).
  const revised = point.dataset.revised ?? "";
  if (revised !== "") lines.push(line("span", "tooltip-revised", revised));
  return lines;
}

/** The point a key moves to from `active` (-1: none shown) among points `0 … last`. */
function keyMove(key: string, active: number, last: number): number {
  // With nothing shown (after Escape), an arrow starts at the newest point, like focus.
  const moves: Record<string, number> = {
    Home: 0,
    End: last,
    ArrowRight: active < 0 ? last : Math.min(last, active + 1),
    ArrowLeft: active < 0 ? last : Math.max(0, active - 1),
  };
  return moves[key] ?? last;
}

/** The index of the point whose centre is nearest the screen position `x`, `y` (-1 for none). */
function nearestPoint(points: readonly SVGCircleElement[], matrix: DOMMatrix | null, x: number, y: number): number {
  let best = -1;
  let bestDistance = Infinity;
  points.forEach((point, i) => {
    const c = centre(point, matrix);
    const distance = (c.x - x) ** 2 + (c.y - y) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  });
  return best;
}

/**
 * Makes a chart readable point by point: focusable, arrow keys (Home/End) move
 * between points, the pointer picks the nearest point, Escape and leaving hide.
 * `tooltip` is positioned absolutely inside the chart's figure (`position:
 * relative`); `announce` is an `aria-live="polite"` element told about keyboard
 * moves. Calling it again on the same svg does nothing.
 */
export function enhanceChart(svg: SVGSVGElement, tooltip: HTMLElement, announce: HTMLElement): void {
  if (svg.dataset[ENHANCED] === "true") return;
  svg.dataset[ENHANCED] = "true";
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("aria-keyshortcuts", "ArrowLeft ArrowRight Home End");

  let points: SVGCircleElement[] | null = null;
  let active = -1;
  // The page may redraw inside the same svg: re-read the points then.
  new MutationObserver(() => {
    points = null;
    active = -1;
  }).observe(svg, { childList: true, subtree: true });
  const all = (): SVGCircleElement[] => (points ??= orderedPoints(svg));

  const hide = (): void => {
    all()[active]?.classList.remove("active");
    active = -1;
    tooltip.hidden = true;
  };

  const show = (index: number, fromKeyboard: boolean): void => {
    const list = all();
    const point = list[index];
    if (point === undefined) return;
    if (index !== active) {
      list[active]?.classList.remove("active");
      point.classList.add("active");
      active = index;
    }
    const texts = describe(point);
    tooltip.replaceChildren(...tooltipLines(point, texts));
    tooltip.hidden = false;
    placeTooltip(tooltip, svg, point);
    if (fromKeyboard) announce.textContent = texts.sentence;
  };

  svg.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      hide();
      return;
    }
    if (!KEYS.includes(event.key)) return;
    const last = all().length - 1;
    if (last < 0) return;
    event.preventDefault(); // no page scroll while reading the chart
    show(keyMove(event.key, active, last), true);
  });

  const nearest = (event: PointerEvent): void => {
    const best = nearestPoint(all(), svg.getScreenCTM(), event.clientX, event.clientY);
    if (best >= 0 && best !== active) show(best, false);
  };
  svg.addEventListener("pointermove", nearest);
  // A tap gives no hover: pick on touch too, and keep the tooltip after the finger lifts.
  svg.addEventListener("pointerdown", nearest);
  svg.addEventListener("pointerleave", (event) => {
    if (event.pointerType !== "touch") hide();
  });

  // Focus opens on the newest point unless a pointer already picked one; announced only for keyboard focus.
  svg.addEventListener("focus", () => {
    if (active < 0) show(all().length - 1, svg.matches(":focus-visible"));
  });
  svg.addEventListener("blur", hide);
}
