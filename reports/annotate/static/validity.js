// rome annotate, validity mode: one card line at a time, one rubric label (+ an optional note) per line.
// Texts are inserted with textContent only, so a line containing markup shows as text.
// The plumbing both modes share (server calls, messages, the action queue, start-up) is common.js.
"use strict";

(() => {
  const { $, api, say, showStatus, showNavigation, nextIndex, queued } = annotateCommon;
  const ui = {
    view: null,      // {index, line (opaque id), expectation, original, variant, labels, judgement}
    label: null,     // the label chosen on screen
    progress: null,  // {done, total, resume}
  };

  function showProgress(progress) {
    ui.progress = progress;
    annotateCommon.showProgress(`${progress.done} / ${progress.total} judged`, progress.done);
  }

  function segments(parts) {
    // [[text, edited], ...] -> text nodes and <mark> elements (never HTML)
    return parts.map(([text, edited]) => {
      if (!edited) return document.createTextNode(text);
      const mark = document.createElement("mark");
      mark.className = "edit";
      mark.textContent = text;
      return mark;
    });
  }

  function isUnsaved() {
    const saved = ui.view && ui.view.judgement;
    if (ui.label === null) return false;
    return !saved || saved.label !== ui.label || saved.note !== $("note").value.trim();
  }

  function render() {
    const view = ui.view;
    $("position").textContent = String(view.index + 1);
    $("expectation").textContent = view.expectation === "invariant" ? "meaning kept (invariant)" : "damaged (decrease)";
    $("original").replaceChildren(...segments(view.original));
    $("variant").replaceChildren(...segments(view.variant));
    showStatus(view.judgement ? "saved" : "not judged", view.judgement ? "saved" : "new", isUnsaved());
    for (const button of $("labels").querySelectorAll("button")) {
      const chosen = button.dataset.label === ui.label;
      button.classList.toggle("chosen", chosen);
      button.setAttribute("aria-pressed", String(chosen));
    }
    showNavigation(view.index, ui.progress.total);
  }

  function labelButtons(labels) {
    return labels.map(({ label, definition }, i) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.label = label;
      const key = document.createElement("kbd");
      key.textContent = String(i + 1);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = label;
      const text = document.createElement("span");
      text.className = "definition";
      text.textContent = definition;
      button.append(key, name, text);
      button.addEventListener("click", queued(() => choose(label)));
      return button;
    });
  }

  async function load(index) {
    const view = await api(`/api/lines/${index}`);
    ui.view = view;
    ui.label = view.judgement ? view.judgement.label : null;
    $("note").value = view.judgement ? view.judgement.note : "";
    $("labels").replaceChildren(...labelButtons(view.labels));
    render();
  }

  function choose(label) {
    ui.label = label;
    say("");
    render();
  }

  async function submit() {
    if (ui.label === null) {
      say("Choose a label first.", "warn");
      return false;
    }
    const note = $("note").value.trim();
    const reply = await api("/api/judgements", { line: ui.view.line, label: ui.label, note });
    ui.view.judgement = { label: ui.label, note };
    showProgress(reply);
    if (reply.written) say(`All ${reply.total} lines judged; card written: ${reply.written}.`, "done");
    return true;
  }

  async function saveAndNext() {
    if (!(await submit())) return;
    const target = nextIndex(ui.view.index, ui.progress);
    if (ui.progress.done < ui.progress.total) say(`Saved line ${ui.view.index + 1}.`);
    $("note").blur();
    if (target !== ui.view.index) await load(target);
    else render();
  }

  async function move(delta) {
    const target = ui.view.index + delta;
    if (target < 0 || target >= ui.progress.total) return;
    if (isUnsaved()) await submit();
    await load(target);
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || !ui.view) return;
    const inNote = event.target === $("note");
    if (event.key === "Enter") queued(saveAndNext)();
    else if (inNote) {
      if (event.key === "Escape") $("note").blur();
      return;  // any other key types into the note
    } else if (event.key === "?") $("help").open = !$("help").open;
    else if (/^[1-9]$/.test(event.key) && Number(event.key) <= ui.view.labels.length) {
      const label = ui.view.labels[Number(event.key) - 1].label;
      queued(() => choose(label))();
    } else if (event.key === "n" || event.key === "N") $("note").focus();
    else if (event.key === "ArrowRight") queued(() => move(1))();
    else if (event.key === "ArrowLeft") queued(() => move(-1))();
    else return;
    event.preventDefault();
  }

  async function start() {
    $("note").addEventListener("input", () => render());
    await annotateCommon.start({ saveAndNext, move, onKey, isUnsaved, onProgress: showProgress, load,
      allDone: "lines judged" });
  }

  document.addEventListener("DOMContentLoaded", queued(start));
})();
