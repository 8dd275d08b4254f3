// rome annotate: one case at a time, three 1-3 ratings, saved to the server on each submit.
// Texts are inserted with textContent only, so a case containing markup shows as text.
// The plumbing both modes share (server calls, messages, the action queue, start-up) is common.js.
"use strict";

(() => {
  const { $, api, say, showStatus, showNavigation, nextIndex, queued } = annotateCommon;
  const CRITERIA = ["fluency", "semantics", "grammar"];
  const ui = {
    view: null,        // the case shown: {index, case (opaque id), references, hypothesis, ratings, skipped}
    ratings: {},       // the ratings on screen for this case
    active: 0,         // index into CRITERIA of the highlighted criterion
    drafts: new Map(), // index -> partial ratings not yet saved (kept while the page is open)
    progress: null,    // {done, skipped, total, resume}
  };

  function showProgress(progress) {
    ui.progress = progress;
    const skipped = progress.skipped ? `, ${progress.skipped} skipped` : "";
    annotateCommon.showProgress(`${progress.done} / ${progress.total} rated${skipped}`, progress.done);
  }

  function isComplete(ratings) {
    return CRITERIA.every((c) => [1, 2, 3].includes(ratings[c]));
  }

  function isUnsaved() {
    const saved = ui.view && ui.view.ratings;
    return CRITERIA.some((c) => ui.ratings[c] !== undefined && (!saved || saved[c] !== ui.ratings[c]));
  }

  function render() {
    const view = ui.view;
    $("position").textContent = String(view.index + 1);
    $("case-id").textContent = view.case;
    const refs = view.references.map((text) => {
      const block = document.createElement("div");
      block.className = "reference";
      block.textContent = text;
      return block;
    });
    $("reference").replaceChildren(...refs);
    $("hypothesis").textContent = view.hypothesis;
    showStatus(view.ratings ? "saved" : view.skipped ? "skipped" : "not rated",
      view.ratings ? "saved" : view.skipped ? "skipped" : "new", isUnsaved());
    for (const [i, criterion] of CRITERIA.entries()) {
      const fieldset = document.querySelector(`fieldset[data-criterion="${criterion}"]`);
      fieldset.classList.toggle("active", i === ui.active);
      for (const button of fieldset.querySelectorAll("button")) {
        const chosen = Number(button.dataset.value) === ui.ratings[criterion];
        button.classList.toggle("chosen", chosen);
        button.setAttribute("aria-pressed", String(chosen));
      }
    }
    showNavigation(view.index, ui.progress.total);
  }

  async function load(index) {
    const view = await api(`/api/cases/${index}`);
    ui.view = view;
    ui.ratings = { ...(ui.drafts.get(index) || view.ratings || {}) };
    ui.active = Math.max(0, CRITERIA.findIndex((c) => ui.ratings[c] === undefined));
    render();
  }

  function stashDraft() {
    if (!ui.view) return;
    if (isUnsaved()) ui.drafts.set(ui.view.index, { ...ui.ratings });
    else ui.drafts.delete(ui.view.index);
  }

  function rate(criterion, value) {
    ui.ratings[criterion] = value;
    const next = CRITERIA.findIndex((c, i) => i > CRITERIA.indexOf(criterion) && ui.ratings[c] === undefined);
    ui.active = next >= 0 ? next : Math.min(CRITERIA.indexOf(criterion) + 1, CRITERIA.length - 1);
    say("");
    render();
  }

  async function submit() {
    if (!isComplete(ui.ratings)) {
      const missing = CRITERIA.filter((c) => ui.ratings[c] === undefined).join(", ");
      say(`Rate every criterion first (missing: ${missing}).`, "warn");
      return false;
    }
    const progress = await api("/api/ratings", { case: ui.view.case, ratings: ui.ratings });
    ui.drafts.delete(ui.view.index);
    ui.view.ratings = { ...ui.ratings };
    showProgress(progress);
    return true;
  }

  async function saveAndNext() {
    if (!(await submit())) return;
    const target = nextIndex(ui.view.index, ui.progress);
    if (ui.progress.done === ui.progress.total) say(`All ${ui.progress.total} cases rated. Thank you!`, "done");
    else say(`Saved ${ui.view.case}.`);
    if (target !== ui.view.index) await load(target);
    else render();
  }

  async function skip() {
    const progress = await api("/api/skips", { case: ui.view.case });
    ui.drafts.delete(ui.view.index);
    showProgress(progress);
    say(`Skipped ${ui.view.case}.`);
    await load(nextIndex(ui.view.index, progress));
  }

  async function move(delta) {
    const target = ui.view.index + delta;
    if (target < 0 || target >= ui.progress.total) return;
    if (isUnsaved() && isComplete(ui.ratings)) await submit();
    stashDraft();
    await load(target);
  }

  const bindings = {
    1: () => rate(CRITERIA[ui.active], 1),
    2: () => rate(CRITERIA[ui.active], 2),
    3: () => rate(CRITERIA[ui.active], 3),
    ArrowDown: () => { ui.active = Math.min(ui.active + 1, CRITERIA.length - 1); render(); },
    ArrowUp: () => { ui.active = Math.max(ui.active - 1, 0); render(); },
    Enter: saveAndNext,
    ArrowRight: () => move(1),
    ArrowLeft: () => move(-1),
    s: skip,
    S: skip,
  };

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !ui.view) return;
    if (event.key === "?") $("help").open = !$("help").open;
    else if (Object.hasOwn(bindings, event.key)) queued(bindings[event.key])();
    else return;
    event.preventDefault();
  }

  async function start() {
    for (const fieldset of document.querySelectorAll("fieldset.criterion")) {
      for (const button of fieldset.querySelectorAll("button")) {
        button.addEventListener("click", queued(() => {
          ui.active = CRITERIA.indexOf(fieldset.dataset.criterion);
          rate(fieldset.dataset.criterion, Number(button.dataset.value));
        }));
      }
    }
    $("skip").addEventListener("click", queued(skip));
    await annotateCommon.start({ saveAndNext, move, onKey, isUnsaved, onProgress: showProgress, load,
      allDone: "cases rated" });
  }

  document.addEventListener("DOMContentLoaded", queued(start));
})();
