"""The validity mode of ``rome annotate``: judge a drawn card in the app, write the labelled card, count it.

Flask test client on real files and a real SQLite store; one end-to-end run draws a real card with
``rome validity --draw``, judges it through the API and counts it with the validity report's own code;
one starts the real command (``--validity --port 0``) and posts to it over HTTP.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from reports.annotate.judgements import JudgementStore, highlighted, load_todo_card
from reports.annotate.validity import create_validity_app
from reports.cli import main
from reports.validity import CURRENT, LABELS, load_card, match_card
from suites.harness.spec import load_suite

XSS = "<script>alert('x')</script> serves <b>cheap</b> food ."
SECRETS = ("fp-SECRET-42", "0.4242", "SECRET-NOTE", "9137")  # a field of no use to a reader, a planted score, an old note, the seed
#: a hand-made card of one kind with both expectations (like the adjective card: synonyms and antonyms)
LINES = [
    {"card": "adjective", "suite": "adjective_replacement", "corpus": "dialogue", "source_id": "s1",
     "text": "x serves cheap food .", "variant": "x serves inexpensive food .",
     "edits": [{"start": 9, "end": 14, "old": "cheap", "new": "inexpensive"}], "expectation": "invariant",
     "label": "", "note": "", "fingerprint": "fp-SECRET-42", "seed": 9137, "n": 60, "bleu": 0.4242},
    {"card": "adjective", "suite": "adjective_replacement", "corpus": "dialogue", "source_id": "s1",
     "text": "x serves cheap food .", "variant": "x serves expensive food .",
     "edits": [{"start": 9, "end": 14, "old": "cheap", "new": "expensive"}], "expectation": "decrease",
     "label": "intended", "note": "SECRET-NOTE", "fingerprint": "fp-SECRET-42", "seed": 9137, "n": 60},
    {"card": "adjective", "suite": "adjective_replacement", "corpus": "dialogue", "source_id": "s2",
     "text": "x serves cheap food .", "variant": XSS, "edits": [], "expectation": "invariant",
     "label": "", "note": "", "fingerprint": "fp-SECRET-42", "seed": 9137, "n": 60},
]


def write_lines(path, lines):
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def todo(tmp_path):
    (tmp_path / "cards" / "dialogue").mkdir(parents=True)
    return write_lines(tmp_path / "cards" / "dialogue" / "adjective.todo.jsonl", LINES)


def open_app(todo_path, store_path, out=None, annotator="alice"):
    store = JudgementStore(store_path)
    out = out or todo_path.with_name(todo_path.name.replace(".todo", ""))
    return create_validity_app(load_todo_card(todo_path), store, annotator, out).test_client(), store


@pytest.fixture
def served(tmp_path, todo):
    client, store = open_app(todo, tmp_path / "store.sqlite")
    yield client, store
    store.close()


def post(client, body, **kwargs):
    return client.post("/api/judgements", data=body if isinstance(body, str) else json.dumps(body),
                       content_type=kwargs.pop("content_type", "application/json"), **kwargs)


def ids(client):
    return [client.get(f"/api/lines/{i}").get_json()["line"] for i in range(client.get("/api/state").get_json()["total"])]


def test_draw_judge_write_and_count_end_to_end(tmp_path):
    """The issue's path: `rome validity --draw`, judged in the app, written, counted by the validity report."""
    cards = tmp_path / "cards"
    todo = cards / "dialogue" / "repetition.todo.jsonl"
    assert main(["validity", "--draw", "repetition", "--n", "3", "--seed", "11", "--out", str(todo)]) == 0
    drawn = [json.loads(line) for line in todo.read_text(encoding="utf-8").splitlines()]
    client, store = open_app(todo, tmp_path / "store.sqlite")
    assert client.get("/api/state").get_json() == {"annotator": "alice", "card": "repetition", "corpus": "dialogue",
                                                   "done": 0, "total": 3, "resume": 0}
    views = [client.get(f"/api/lines/{i}").get_json() for i in range(3)]
    for view, line in zip(views, drawn):
        assert "".join(s for s, _ in view["original"]) == line["text"]
        assert "".join(s for s, _ in view["variant"]) == line["variant"]
        # the repeated words are what is highlighted
        assert [s for s, edited in view["variant"] if edited] == [e["new"] for e in line["edits"]]
        assert [x["label"] for x in view["labels"]] == list(LABELS["decrease"])
        assert "repeated" in view["labels"][0]["definition"] and view["judgement"] is None
    labels = [("intended", ""), ("broken", "a suffix  repeated\n"), ("intended", "")]
    for i, (view, (label, note)) in enumerate(zip(views, labels)):
        reply = post(client, {"line": view["line"], "label": label, "note": note}).get_json()
        assert reply["done"] == i + 1 and reply["written"] == (None if i < 2 else "repetition.jsonl")
    store.close()

    card = load_card(cards / "dialogue" / "repetition.jsonl")
    assert [list(line) for line in card] == [list(line) for line in drawn]  # same fields, same order
    assert [line["variant"] for line in card] == [line["variant"] for line in drawn]
    assert [(line["label"], line["note"]) for line in card] == [("intended", ""), ("broken", "a suffix repeated"),
                                                                 ("intended", "")]
    match = match_card(load_suite("repetition"), [cards])
    statuses = match.statuses
    assert match.card == "repetition" and statuses["decrease"].state == CURRENT
    assert (statuses["decrease"].n, statuses["decrease"].counts) == (3, {"intended": 2, "broken": 1})
    assert statuses["decrease"].rate == pytest.approx(2 / 3)


def test_resume_after_restart_and_relabel_rewrites_the_card(tmp_path, todo):
    client, store = open_app(todo, tmp_path / "store.sqlite")
    keys = ids(client)
    post(client, {"line": keys[0], "label": "valid"})
    post(client, {"line": keys[2], "label": "meaning_changed", "note": "the food is gone"})
    store.close()
    out = todo.with_name("adjective.jsonl")
    assert not out.exists()  # a partial card is never written
    client, store = open_app(todo, tmp_path / "store.sqlite")
    assert client.get("/api/state").get_json() | {"annotator": None} == {
        "annotator": None, "card": "adjective", "corpus": "dialogue", "done": 2, "total": 3, "resume": 1}
    assert client.get("/api/lines/2").get_json()["judgement"] == {"label": "meaning_changed", "note": "the food is gone"}
    assert post(client, {"line": keys[1], "label": "intended"}).get_json()["written"] == "adjective.jsonl"
    assert [x["label"] for x in load_card(out)] == ["valid", "intended", "meaning_changed"]
    post(client, {"line": keys[0], "label": "awkward", "note": "stiff"})  # a later change rewrites the card
    assert [(x["label"], x["note"]) for x in load_card(out)][0] == ("awkward", "stiff")
    assert not list(out.parent.glob(".*.tmp"))
    assert client.get("/api/state").get_json()["resume"] == 0  # everything judged: start at the top
    store.close()


def test_changed_texts_void_the_old_judgement(tmp_path, todo):
    client, store = open_app(todo, tmp_path / "store.sqlite")
    post(client, {"line": ids(client)[0], "label": "valid"})
    store.close()
    write_lines(todo, [dict(LINES[0], variant="x serves low-cost food ."), *LINES[1:]])
    client, store = open_app(todo, tmp_path / "store.sqlite")
    assert client.get("/api/state").get_json()["done"] == 0
    assert client.get("/api/lines/0").get_json()["judgement"] is None
    store.close()


def test_the_page_is_blind_to_scores_and_old_labels_and_escapes_texts(served):
    client, _ = served
    page = client.get("/")
    seen = page.get_data(as_text=True) + client.get("/static/validity.js").get_data(as_text=True)
    seen += json.dumps(client.get("/api/state").get_json())
    views = [client.get(f"/api/lines/{i}").get_json() for i in range(3)]
    seen += json.dumps(views)
    for secret in SECRETS:
        assert secret not in seen, secret
    assert views[1]["judgement"] is None  # the file's own "intended" is not offered as a judgement
    assert [x["label"] for x in views[1]["labels"]] == list(LABELS["decrease"])
    assert [x["label"] for x in views[0]["labels"]] == list(LABELS["invariant"])
    assert views[0]["original"] == [["x serves ", False], ["cheap", True], [" food .", False]]
    assert views[2]["variant"] == [[XSS, False]] and "<script>" not in page.get_data(as_text=True)
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    js = client.get("/static/validity.js").get_data(as_text=True) + client.get("/static/common.js").get_data(as_text=True)
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "textContent" in js
    assert '<script src="/static/common.js" defer></script>' in page.get_data(as_text=True)


BAD = [
    (lambda k: {"line": k[0], "label": "great"}, 400, "label 'great' is not one of valid, meaning_changed"),
    (lambda k: {"line": k[1], "label": "valid"}, 400, "not one of intended, not_changed, broken (a label of invariant"),
    (lambda k: {"line": k[0], "label": "intended"}, 400, "(a label of decrease variants)"),
    (lambda k: {"line": k[0], "label": 1}, 400, "label must be a string"),
    (lambda k: {"line": k[0]}, 400, "missing label"),
    (lambda k: {"line": "0123456789ab", "label": "valid"}, 404, "no such line"),
    (lambda k: {"line": "../../etc/passwd", "label": "valid"}, 404, "no such line"),
    (lambda k: {"line": 0, "label": "valid"}, 400, "line must be a string"),
    (lambda k: {"label": "valid"}, 400, "line must be a string"),
    (lambda k: {"line": k[0], "label": "valid", "note": 3}, 400, "note must be a string"),
    (lambda k: {"line": k[0], "label": "valid", "note": "n" * 501}, 400, "at most 500"),
    (lambda k: {"line": k[0], "label": "valid", "annotator": "mallory"}, 400, "unknown field 'annotator'"),
    (lambda k: {"line": k[0], "label": "valid", "fingerprint": "x"}, 400, "unknown field 'fingerprint'"),
    (lambda k: '{"line": ', 400, "JSON object"),
    (lambda k: "[1, 2]", 400, "JSON object"),
]


@pytest.mark.parametrize("body, status, message", BAD)
def test_bad_judgements_are_refused_and_nothing_is_written(tmp_path, served, body, status, message):
    client, store = served
    keys = ids(client)
    post(client, {"line": keys[2], "label": "valid"})
    before = store.judgements("alice")
    reply = post(client, body(keys))
    assert reply.status_code == status and message in reply.get_json()["error"]
    assert store.judgements("alice") == before
    assert not (tmp_path / "cards" / "dialogue" / "adjective.jsonl").exists()


def test_the_guards_of_the_rating_mode_hold_here(served):
    client, store = served
    key = ids(client)[0]
    assert post(client, json.dumps({"line": key, "label": "valid"}), content_type="text/plain").status_code == 415
    assert post(client, {"line": key, "label": "valid"}, headers={"Origin": "http://evil.example"}).status_code == 403
    assert post(client, {"line": key, "label": "valid", "note": "x" * 20000}).status_code == 413
    assert client.get("/", headers={"Host": "rebind.example"}).status_code == 400
    assert client.get("/api/lines/3").status_code == 404 and client.get("/api/judgements").status_code == 405
    assert client.get("/static/../judgements.py").status_code == 404
    assert store.judgements("alice") == {}
    assert post(client, {"line": key, "label": "valid"}, headers={"Origin": "http://localhost"}).status_code == 200


@pytest.mark.parametrize("lines, message", [
    ('{"card": "adjective", \n', "malformed JSON"),
    ("", "no card lines"),
    ([{k: v for k, v in LINES[0].items() if k != "variant"}], "missing field 'variant'"),
    ([{k: v for k, v in LINES[0].items() if k != "n"}], "missing field 'n'"),  # which draw? refused before labelling
    ([dict(LINES[0], seed="7")], "field 'seed' must be an integer"),
    ([dict(LINES[0], expectation="increase")], "expectation must be one of invariant, decrease"),
    ([dict(LINES[0], variant="")], "field 'variant' is empty"),
    ([dict(LINES[0], text=["a"])], "field 'text' must be a string"),
    ([dict(LINES[0], label=None)], "field 'label' must be a string"),
    ([LINES[0], dict(LINES[0], card="passive")], "one card per file"),
    ([LINES[0], dict(LINES[0], corpus="news")], "one card per file"),
])
def test_malformed_todo_cards_are_one_line_errors(tmp_path, capsys, lines, message):
    todo = tmp_path / "x.todo.jsonl"
    if isinstance(lines, str):
        todo.write_text(lines, encoding="utf-8")
    else:
        write_lines(todo, lines)
    assert main(["annotate", "--validity", str(todo), "--annotator", "a", "--store", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_option_errors(tmp_path, todo, capsys):
    plain = write_lines(tmp_path / "judged.jsonl", LINES)
    for argv, message in [
        (["--validity", str(plain)], "not a <card>.todo.jsonl file; say where the labelled card goes with --out"),
        (["--validity", str(plain), "--out", str(plain)], "is the card being judged"),
        (["--validity", str(todo), "--cases", str(todo)], "not both"),
        (["--cases", str(todo), "--out", str(tmp_path / "c.jsonl")], "--out goes with --validity"),
        (["--validity", str(tmp_path / "none.todo.jsonl")], "no such file"),
    ]:
        assert main(["annotate", *argv, "--annotator", "a", "--store", str(tmp_path / "s")]) == 2
        assert message in capsys.readouterr().err, argv
    assert main(["annotate", "--validity", str(todo)]) == 2
    assert "--annotator" in capsys.readouterr().err


def test_export_card_from_a_store(tmp_path, todo, capsys):
    store_path, out = tmp_path / "store.sqlite", tmp_path / "elsewhere" / "adjective.jsonl"
    client, store = open_app(todo, store_path, out=tmp_path / "unused.jsonl")
    keys = ids(client)
    post(client, {"line": keys[0], "label": "valid"})
    store.close()
    argv = ["annotate", "export-card", "--store", str(store_path), "--validity", str(todo), "--annotator", "alice",
            "--out", str(out)]
    assert main(argv) == 2
    assert "2 of 3 lines are not judged yet (lines 2, 3)" in capsys.readouterr().err and not out.exists()
    client, store = open_app(todo, store_path, out=tmp_path / "unused.jsonl")
    post(client, {"line": keys[1], "label": "not_changed", "note": "an equivalent"})
    post(client, {"line": keys[2], "label": "ungrammatical"})
    store.close()
    assert main(argv) == 0
    assert [x["label"] for x in load_card(out)] == ["valid", "not_changed", "ungrammatical"]
    assert main([*argv[:-3], "bob", "--out", str(out)]) == 2  # bob judged nothing
    assert "3 of 3 lines are not judged yet" in capsys.readouterr().err
    assert main(["annotate", "export-card", "--store", str(tmp_path / "none.sqlite"), "--validity", str(todo),
                 "--annotator", "alice"]) == 2
    assert "no such judgement store" in capsys.readouterr().err


def test_highlighted_edits():
    assert highlighted("a b", "a b b", [{"start": 3, "end": 3, "old": "", "new": " b"}]) == (
        [["a b", False]], [["a b", False], [" b", True]])
    assert highlighted("ab cd", "cd", [{"start": 0, "end": 3, "old": "ab ", "new": ""}]) == (
        [["ab ", True], ["cd", False]], [["cd", False]])
    # edits that do not rebuild the variant, or are not edits at all: nothing highlighted, no error
    assert highlighted("a b", "a c", [{"start": 0, "end": 1, "old": "a", "new": "x"}]) == ([["a b", False]], [["a c", False]])
    assert highlighted("a b", "a c", [{"start": 9, "end": 1, "old": "", "new": ""}])[0] == [["a b", False]]
    assert highlighted("a b", "a c", ["x"])[1] == [["a c", False]]


def test_the_served_command_saves_and_writes_the_card_and_survives_a_kill(tmp_path, todo):
    store_path = tmp_path / "store.sqlite"

    def start():
        cmd = [sys.executable, "-c", "import sys; from reports.cli import main; sys.exit(main())", "annotate",
               "--validity", str(todo), "--annotator", "alice", "--store", str(store_path), "--port", "0"]
        # Ctrl+C must reach the server even when this run itself was started as a background job, whose
        # SIGINT the shell ignores and every child inherits ignored (a server that never stops, not a failure)
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        banner, deadline = "", time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stderr.readline()
            banner += line
            found = re.search(r"open (http://127\.0\.0\.1:\d+)/", line)
            if found:
                return proc, found.group(1), banner
            if not line and proc.poll() is not None:
                break
        proc.kill()
        raise AssertionError(f"the server did not start: {banner}")

    def call(url, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url + path, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.load(reply)

    proc, url, banner = start()
    try:
        assert "0 / 3 judged" in banner and "adjective.jsonl once every line is judged" in banner
        keys = [call(url, f"/api/lines/{i}")["line"] for i in range(3)]
        assert call(url, "/api/judgements", {"line": keys[0], "label": "valid"})["done"] == 1
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        proc.stderr.close()
    proc, url, banner = start()
    try:
        assert "1 / 3 judged" in banner and call(url, "/api/state")["resume"] == 1
        call(url, "/api/judgements", {"line": keys[1], "label": "intended"})
        assert call(url, "/api/judgements", {"line": keys[2], "label": "valid"})["written"] == "adjective.jsonl"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        proc.stderr.close()
    assert [x["label"] for x in load_card(todo.with_name("adjective.jsonl"))] == ["valid", "intended", "valid"]
