"""The annotation web app (Flask): one page, a small JSON API, and its own static files.

The browser never names a file: cases are addressed by their index in the loaded list and
by an opaque id (:attr:`AnnotationPair.public_id`; the real case id, which names the suite and so the
perturbation, never reaches the page), the annotator is fixed when the server starts, and
static files go through Flask's ``safe_join``.
Every submitted rating is validated (known case, the three known criteria, integers 1-3) before
anything is written; anything else gets a 4xx and the store is left unchanged.
The app shell both modes share (:func:`new_app`: Host check, guards, body limit; :func:`json_body`,
:func:`known_index`, :func:`require_position`, :func:`serve`) is here; the validity mode
(:mod:`reports.annotate.validity`) adds its own page and API to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask, abort, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from reports.annotate import CRITERIA
from reports.annotate.cases import AnnotationPair
from reports.annotate.store import AnnotationStore, Rating, validate_scores
from rome.core.errors import InputError
from rome.core.jsonl import loads

#: host names accepted in the Host header when bound to a loopback address (guards against DNS rebinding)
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]
#: what the page calls each criterion (the paper's wording)
LABELS = {"fluency": "Fluency", "semantics": "Semantic correctness", "grammar": "Grammatical correctness"}
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class Session:
    """The loaded cases and one annotator's view of the store."""

    def __init__(self, cases: Sequence[AnnotationPair], store: AnnotationStore, annotator: str):
        self.cases = list(cases)
        self.store = store
        self.annotator = annotator
        self.index = {case.public_id: i for i, case in enumerate(self.cases)}
        if len(self.index) != len(self.cases):  # 48-bit digests of distinct ids: not expected to happen
            raise InputError("two case ids share an opaque id; rename one of them")

    def current_rows(self) -> dict[str, Rating]:
        """This annotator's rows for the loaded cases whose texts are unchanged since they were rated."""
        rows = {r.case_id: r for r in self.store.ratings(self.annotator)}
        return {c.case_id: rows[c.case_id] for c in self.cases
                if c.case_id in rows and rows[c.case_id].text_hash == c.text_hash}

    def progress(self) -> dict[str, Any]:
        rows = self.current_rows()
        done = sum(not r.skipped for r in rows.values())
        skipped = sum(r.skipped for r in rows.values())
        untouched = [i for i, c in enumerate(self.cases) if c.case_id not in rows]
        skipped_at = [i for i, c in enumerate(self.cases) if c.case_id in rows and rows[c.case_id].skipped]
        resume = (untouched or skipped_at or [0])[0]
        return {"done": done, "skipped": skipped, "total": len(self.cases), "resume": resume}

    def case_view(self, i: int) -> dict[str, Any]:
        case = self.cases[i]
        row = self.current_rows().get(case.case_id)
        return {"index": i, "case": case.public_id, "references": list(case.references),
                "hypothesis": case.hypothesis, "skipped": bool(row and row.skipped),
                "ratings": dict(row.scores) if row and not row.skipped else None}


def json_body() -> dict[str, Any]:
    """The request's JSON object; 415 or 400 for anything else.

    Parsed by the one JSON reader of every command (:func:`rome.core.jsonl.loads`: depth, number size,
    no NaN, no lone surrogate, which could never be stored as UTF-8), so a bad body is a 400 with the
    reason, never a 500 from the store.
    """
    if not request.is_json:
        abort(415, "send the body as application/json")
    try:
        body = loads(request.get_data().decode("utf-8"), "the body must be a JSON object")
    except UnicodeDecodeError:
        abort(400, "the body is not UTF-8 text")
    except InputError as exc:
        abort(400, str(exc))
    if not isinstance(body, dict):
        abort(400, "the body must be a JSON object")
    return body


def known_index(body: dict[str, Any], allowed: set[str], field: str, index: Mapping[str, int]) -> int:
    """The position of the item whose opaque id is ``body[field]`` (``field``: case, line); 4xx otherwise.

    Fields outside ``allowed`` are refused first, so a misspelt field is never silently ignored.
    """
    extra = sorted(set(body) - allowed)
    if extra:
        abort(400, f"unknown field {extra[0]!r}")
    key = body.get(field)
    if not isinstance(key, str):
        abort(400, f"{field} must be a string (the {field}'s opaque id)")
    if key not in index:
        abort(404, f"no such {field}")
    return index[key]


def require_position(i: int, count: int, noun: str) -> None:
    """404 unless ``i`` is a position in the loaded list."""
    if not 0 <= i < count:
        abort(404, f"no such {noun}")


def _register_api(app: Flask, session: Session) -> None:
    @app.get("/api/state")
    def state():
        return jsonify(annotator=session.annotator, criteria=list(CRITERIA), **session.progress())

    @app.get("/api/cases/<int:i>")
    def case(i: int):
        require_position(i, len(session.cases), "case")
        return jsonify(session.case_view(i))

    @app.post("/api/ratings")
    def rate():
        body = json_body()
        case = session.cases[known_index(body, {"case", "ratings"}, "case", session.index)]
        try:
            scores = validate_scores(body.get("ratings"))
        except InputError as exc:
            abort(400, str(exc))
        session.store.save_rating(case.case_id, session.annotator, scores, case.text_hash)
        return jsonify(ok=True, **session.progress())

    @app.post("/api/skips")
    def skip():
        case = session.cases[known_index(json_body(), {"case"}, "case", session.index)]
        session.store.save_skip(case.case_id, session.annotator, case.text_hash)
        return jsonify(ok=True, **session.progress())


def _register_guards(app: Flask) -> None:
    @app.before_request
    def same_origin_only():
        """A page on another site must not post ratings here (cross-site request forgery)."""
        origin = request.headers.get("Origin")
        if origin is not None and origin != request.host_url.rstrip("/"):
            abort(403, "cross-origin request refused")

    @app.after_request
    def security_headers(response):
        response.headers["Content-Security-Policy"] = _CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        if request.path.startswith("/api/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if request.path.startswith("/api/"):
            return jsonify(error=exc.description or exc.name), exc.code
        return exc


def new_app(import_name: str, trusted_hosts: list[str] | None) -> Flask:
    """A Flask app on this package's static files and templates, with the limits and guards of every mode."""
    app = Flask(import_name, static_folder="static", template_folder="templates")
    app.config.update(MAX_CONTENT_LENGTH=16 * 1024, TRUSTED_HOSTS=trusted_hosts)
    _register_guards(app)
    return app


def create_app(cases: Sequence[AnnotationPair], store: AnnotationStore, annotator: str,
               trusted_hosts: list[str] | None = LOOPBACK_HOSTS) -> Flask:
    """The app for one annotator; ``trusted_hosts=None`` accepts any Host header (non-loopback binds)."""
    if not cases:
        raise InputError("no cases to annotate")
    app = new_app(__name__, trusted_hosts)
    session = Session(cases, store, annotator)
    app.extensions["annotation_session"] = session

    @app.get("/")
    def page():
        return render_template("annotate.html", annotator=annotator, total=len(session.cases),
                               criteria=[(c, LABELS[c]) for c in CRITERIA])

    _register_api(app, session)
    return app


def serve(app: Flask, host: str, port: int):
    """A threaded WSGI server on ``host:port`` (port 0: a free one; the bound one is ``.port``).

    The socket is bound here rather than by Werkzeug, whose bind failure prints and exits the
    process; an unusable address is then an ``OSError`` the caller can report in one line.
    """
    import socket

    from werkzeug.serving import get_sockaddr, make_server, select_address_family

    family = select_address_family(host, port)
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(get_sockaddr(host, port, family))
        sock.listen(128)
        return make_server(host, port, app, threaded=True, fd=sock.fileno())  # duplicates the socket
