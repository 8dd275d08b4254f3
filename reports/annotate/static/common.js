// rome annotate, both modes (rating: annotate.js, validity: validity.js): the page plumbing they share.
// Loaded before the mode's script; it defines one global, annotateCommon, and touches the page only
// through textContent, so nothing the server sends is ever read as markup.
"use strict";

const annotateCommon = (() => {
  const $ = (id) => document.getElementById(id);

  async function api(path, body) {
    const options = body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
    return data;
  }

  function say(text, kind = "info") {
    const box = $("message");
    box.textContent = text;
    box.className = kind;
  }

  function showProgress(text, done) {
    $("progress-text").textContent = text;
    $("progress-bar").value = done;
  }

  // The status badge: the stored state of the item shown, unless the screen differs from it.
  function showStatus(text, state, unsaved) {
    const status = $("status");
    status.textContent = unsaved ? "unsaved changes" : text;
    status.dataset.state = unsaved ? "unsaved" : state;
  }

  function showNavigation(index, total) {
    $("prev").disabled = index === 0;
    $("next").disabled = index === total - 1;
  }

  // After a save: the next item, else (at the end) the first one left to do, else stay.
  function nextIndex(index, progress) {
    const after = index + 1;
    if (after < progress.total) return after;
    return progress.done < progress.total ? progress.resume : index;
  }

  // Every action waits for the one before it, so keys typed while a save is on its way apply,
  // in order, to the item shown after it (a fast 1 2 3 Enter 1 1 1 Enter rates two cases).
  let queue = Promise.resolve();
  function queued(action) {
    return (...args) => {
      queue = queue.then(() => action(...args)).catch((error) => say(`Not saved: ${error.message}`, "error"));
      return queue;
    };
  }

  // The wiring every page has (save, previous, next, keys, leaving with unsaved changes), then the
  // server's state: progress shown, the item to resume at loaded, and the page marked ready.
  async function start({ saveAndNext, move, onKey, isUnsaved, onProgress, load, allDone }) {
    $("save").addEventListener("click", queued(saveAndNext));
    $("prev").addEventListener("click", queued(() => move(-1)));
    $("next").addEventListener("click", queued(() => move(1)));
    document.addEventListener("keydown", onKey);
    window.addEventListener("beforeunload", (event) => {
      if (isUnsaved()) event.preventDefault();
    });
    const state = await api("/api/state");
    onProgress(state);
    await load(state.resume);
    if (state.done === state.total) say(`All ${state.total} ${allDone}; you can review them.`, "done");
    document.body.dataset.ready = "true";
  }

  return Object.freeze({ $, api, say, showProgress, showStatus, showNavigation, nextIndex, queued, start });
})();
