/**
 * The selection's first moments on a page with a compared facet, inlined in the
 * page by the build (src/site/site.ts `selectionForm`) so it runs as the page
 * arrives, before the page script (a second request, seconds later on a slow
 * phone): a shared address (`#provider=…`) sets the selects at once, the view is
 * marked pending with the chosen labels instead of showing the default's numbers,
 * the chosen group's data file is requested (the page script takes that request
 * over, src/site/client/group-files.ts), and the form is shown; a choice made
 * before the page script runs is kept and rendered by it.
 *
 * Kept small, it imports nothing that runs: every byte is in every such page.
 */
import { fetchJson } from "./group-files.js";

/** The text of a select's chosen option. */
function chosenText(select: HTMLSelectElement): string {
  return select.options[select.selectedIndex]?.text ?? "";
}

/** The view shows it is waiting: a card naming the chosen values, saying it is loading (`data-loading`). */
function markPending(form: HTMLElement, selects: readonly HTMLSelectElement[]): void {
  document.body.classList.add("view-pending");
  const card = document.getElementById("view-card");
  const compared = selects.find((s) => s.hasAttribute("data-compared"));
  if (card === null || compared === undefined) return;
  const article = document.createElement("article");
  article.className = "card card-pending";
  const parts: [string, string, string | null][] = [
    ["h2", "card-title", chosenText(compared)],
    ["p", "card-sub", selects.filter((s) => s !== compared).map(chosenText).join(" · ")],
    ["p", "card-loading", form.getAttribute("data-loading")],
  ];
  for (const [tag, className, text] of parts) {
    const element = document.createElement(tag);
    element.className = className;
    element.textContent = text;
    article.appendChild(element);
  }
  card.replaceChildren(article);
}

/**
 * Requests the chosen group's file, once. Its key is series-view.ts `groupKey`:
 * the indices (`data-i`) of the chosen values of every facet but the compared one.
 */
function prefetch(form: HTMLElement, selects: readonly HTMLSelectElement[]): void {
  const key =
    selects
      .filter((s) => !s.hasAttribute("data-compared"))
      .map((s) => s.options[s.selectedIndex]?.getAttribute("data-i") ?? "")
      .join("-") || "all";
  const url = `${form.getAttribute("data-groups") ?? ""}${key}.json`;
  const requested = (window.osViewData ??= {});
  requested[url] ??= fetchJson(url);
}

function main(): void {
  const form = document.getElementById("selection");
  if (form === null) return;
  const selects = [...form.querySelectorAll("select")];
  const hash = new URLSearchParams(location.hash.slice(1));
  let moved = false;
  for (const select of selects) {
    const value = hash.get(select.name);
    if (value !== null && select.value !== value && [...select.options].some((o) => o.value === value)) {
      select.value = value;
      moved = true;
    }
  }
  if (moved) {
    markPending(form, selects);
    prefetch(form, selects);
  }
  form.addEventListener("change", () => {
    if (window.osReady === true) return;
    markPending(form, selects);
    prefetch(form, selects);
  });
  form.hidden = false;
}

main();
