"""The validity mode of the annotation app: judge a drawn card's variants one at a time, against the rubric.

Same app shell and guards as the rating mode (:mod:`reports.annotate.app`: loopback Host check,
same-origin POSTs, CSP, 16 KiB bodies, JSON-only API, 4xx before anything is written). The page
shows the original and the variant (edited spans highlighted), the card's kind and the line's
expectation, and the rubric labels of that expectation; never a metric score, nor the line's
fingerprint, seed or any label already in the file. When the last line is judged (and on every
save after that) the labelled card is written atomically to ``out``; a partial card is never
written there, because at a card's own path it would replace a judged card with a short one.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from flask import Flask, abort, jsonify, render_template

from reports.annotate.app import LOOPBACK_HOSTS, json_body, known_index, new_app, require_position
from reports.annotate.judgements import (
    CardLine,
    JudgementStore,
    highlighted,
    label_definition,
    write_labelled_card,
)
from rome.core.errors import InputError


class ValiditySession:
    """The todo card's lines, where the labelled card goes, and one annotator's judgements."""

    def __init__(self, lines: list[CardLine], store: JudgementStore, annotator: str, out: Path):
        self.lines = list(lines)
        self.store = store
        self.annotator = annotator
        self.out = Path(out)
        self._writing = threading.Lock()  # two tabs saving at once must not write the same temporary file
        self.index = {line.public_id: i for i, line in enumerate(self.lines)}
        if len(self.index) != len(self.lines):  # 48-bit digests of distinct keys: not expected to happen
            raise InputError("two card lines share an opaque id")

    @property
    def card(self) -> str:
        return self.lines[0].card

    @property
    def corpus(self) -> str:
        return str(self.lines[0].raw.get("corpus", ""))

    def progress(self) -> dict[str, Any]:
        judged = self.store.current(self.lines, self.annotator)
        todo = [i for i, line in enumerate(self.lines) if line.key not in judged]
        return {"done": len(self.lines) - len(todo), "total": len(self.lines), "resume": (todo or [0])[0]}

    def line_view(self, i: int) -> dict[str, Any]:
        line = self.lines[i]
        row = self.store.current([line], self.annotator).get(line.key)
        original, variant = highlighted(line.text, line.variant, line.raw.get("edits"))
        return {"index": i, "line": line.public_id, "expectation": line.expectation,
                "original": original, "variant": variant,
                "labels": [{"label": x, "definition": label_definition(x, line.card)} for x in line.labels()],
                "judgement": {"label": row.label, "note": row.note} if row else None}

    def write_if_complete(self) -> Path | None:
        with self._writing:
            judged = self.store.current(self.lines, self.annotator)
            if len(judged) < len(self.lines):
                return None
            return write_labelled_card(self.lines, judged, self.out, [("the judgement store", self.store.path)])


def create_validity_app(lines: list[CardLine], store: JudgementStore, annotator: str, out: Path,
                        trusted_hosts: list[str] | None = LOOPBACK_HOSTS) -> Flask:
    """The validity-mode app for one annotator; ``trusted_hosts=None`` accepts any Host (non-loopback binds)."""
    if not lines:
        raise InputError("no card lines to judge")
    app = new_app(__name__, trusted_hosts)
    session = ValiditySession(lines, store, annotator, out)
    app.extensions["validity_session"] = session

    @app.get("/")
    def page():
        return render_template("validity.html", annotator=annotator, total=len(session.lines),
                               card=session.card, corpus=session.corpus)

    @app.get("/api/state")
    def state():
        return jsonify(annotator=annotator, card=session.card, corpus=session.corpus, **session.progress())

    @app.get("/api/lines/<int:i>")
    def line(i: int):
        require_position(i, len(session.lines), "line")
        return jsonify(session.line_view(i))

    @app.post("/api/judgements")
    def judge():
        body = json_body()
        card_line = session.lines[known_index(body, {"line", "label", "note"}, "line", session.index)]
        if "label" not in body:
            abort(400, "missing label")
        try:
            session.store.save(card_line, annotator, body["label"], body.get("note"))
        except InputError as exc:
            abort(400, str(exc))
        try:
            written = session.write_if_complete()
        except (OSError, InputError) as exc:
            abort(500, f"judgement saved, but the card could not be written to {session.out} "
                       f"({getattr(exc, 'strerror', None) or exc})")
        return jsonify(ok=True, written=written.name if written else None, **session.progress())

    return app
