"""The annotation app's API and safety (Flask test client), and the ``rome annotate`` command line."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from http.client import HTTPConnection
from urllib.parse import urlsplit

import pytest

from reports.annotate.app import create_app
from reports.annotate.cases import AnnotationPair, load_cases
from reports.annotate.store import AnnotationStore
from reports.cli import main

XSS = "<script>alert('x')</script> serves <b>cheap</b> food"
CASES = [
    {"id": "c1", "reference": "the hotel drisco is pricey .", "hypothesis": "teh hotel drisco is pricey ."},
    {"id": "c2", "reference": "x serves cheap food .", "hypothesis": XSS},
    {"id": "c3", "reference": ["the cafe is near x .", "x is close to the cafe ."], "hypothesis": "the cafe naer x"},
]
GOOD = {"fluency": 2, "semantics": 3, "grammar": 1}
#: the opaque id the page shows and posts back for each case
KEY = {c["id"]: AnnotationPair(c["id"], (), "").public_id for c in CASES}


@pytest.fixture
def cases_file(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    return path


@pytest.fixture
def served(tmp_path, cases_file):
    store = AnnotationStore(tmp_path / "store.sqlite")
    app = create_app(load_cases(cases_file), store, "alice <b>&</b>")
    yield app.test_client(), store
    store.close()


def post(client, path, body, **kwargs):
    return client.post(path, data=body if isinstance(body, str) else json.dumps(body),
                       content_type=kwargs.pop("content_type", "application/json"), **kwargs)


def test_rate_skip_and_resume(served):
    client, store = served
    assert client.get("/api/state").get_json() | {"criteria": None} == {
        "annotator": "alice <b>&</b>", "criteria": None, "done": 0, "skipped": 0, "total": 3, "resume": 0}
    reply = post(client, "/api/ratings", {"case": KEY["c1"], "ratings": GOOD})
    assert reply.status_code == 200 and reply.get_json()["done"] == 1 and reply.get_json()["resume"] == 1
    assert post(client, "/api/skips", {"case": KEY["c2"]}).get_json() | {"ok": None} == {
        "ok": None, "done": 1, "skipped": 1, "total": 3, "resume": 2}
    view = client.get("/api/cases/0").get_json()
    assert view["ratings"] == GOOD and view["references"] == ["the hotel drisco is pricey ."]
    assert client.get("/api/cases/2").get_json()["references"] == CASES[2]["reference"]
    post(client, "/api/ratings", {"case": KEY["c3"], "ratings": GOOD})
    assert client.get("/api/state").get_json()["resume"] == 1  # only the skipped case is left
    assert [(r.case_id, r.annotator) for r in store.ratings()] == [
        ("c1", "alice <b>&</b>"), ("c2", "alice <b>&</b>"), ("c3", "alice <b>&</b>")]


def test_texts_and_names_are_escaped(served):
    client, _ = served
    page = client.get("/").get_data(as_text=True)
    assert "alice &lt;b&gt;&amp;&lt;/b&gt;" in page and "<b>&</b>" not in page
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    reply = client.get("/api/cases/1")
    assert reply.mimetype == "application/json" and reply.get_json()["hypothesis"] == XSS
    js = client.get("/static/annotate.js").get_data(as_text=True)
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and ".textContent = view.hypothesis" in js
    shared = client.get("/static/common.js").get_data(as_text=True)  # api, say, progress: both modes
    assert "innerHTML" not in shared and "insertAdjacentHTML" not in shared and "textContent" in shared
    assert '<script src="/static/common.js" defer></script>' in page


BAD_REQUESTS = [
    ({"case": KEY["c1"], "ratings": {**GOOD, "fluency": 4}}, 400, "from 1 to 3"),
    ({"case": KEY["c1"], "ratings": {**GOOD, "fluency": 0}}, 400, "from 1 to 3"),
    ({"case": KEY["c1"], "ratings": {**GOOD, "fluency": 2.5}}, 400, "integer"),
    ({"case": KEY["c1"], "ratings": {**GOOD, "fluency": "3"}}, 400, "integer"),
    ({"case": KEY["c1"], "ratings": {**GOOD, "fluency": True}}, 400, "integer"),
    ({"case": KEY["c1"], "ratings": {**GOOD, "style": 2}}, 400, "unknown criterion"),
    ({"case": KEY["c1"], "ratings": {"fluency": 2}}, 400, "missing rating"),
    ({"case": KEY["c1"], "ratings": [2, 3, 1]}, 400, "must be an object"),
    ({"case": KEY["c1"]}, 400, "must be an object"),
    ({"case": "nope", "ratings": GOOD}, 404, "no such case"),
    ({"case": "../../etc/passwd", "ratings": GOOD}, 404, "no such case"),
    ({"case": 1, "ratings": GOOD}, 400, "case must be a string"),
    ({"case_id": "c1", "ratings": GOOD}, 400, "unknown field 'case_id'"),  # the real id is not accepted either
    ({"case": KEY["c1"], "ratings": GOOD, "annotator": "mallory"}, 400, "unknown field 'annotator'"),
    ('{"case": KEY["c1"], "ratings": ', 400, "JSON object"),
    ("[1, 2, 3]", 400, "JSON object"),
    ("", 400, "JSON object"),
]


@pytest.mark.parametrize("body, status, message", BAD_REQUESTS)
def test_bad_ratings_rejected_and_store_unchanged(served, body, status, message):
    client, store = served
    post(client, "/api/ratings", {"case": KEY["c2"], "ratings": GOOD})
    before = store.ratings()
    reply = post(client, "/api/ratings", body)
    assert reply.status_code == status and message in reply.get_json()["error"]
    assert store.ratings() == before


def test_other_rejections_leave_store_unchanged(served):
    client, store = served
    assert post(client, "/api/ratings", json.dumps({"case": KEY["c1"], "ratings": GOOD}),
                content_type="text/plain").status_code == 415
    assert post(client, "/api/ratings", {"case": KEY["c1"], "ratings": GOOD},
                headers={"Origin": "http://evil.example"}).status_code == 403
    assert post(client, "/api/ratings", {"case": KEY["c1"], "ratings": GOOD, "pad": "x" * 20000}).status_code == 413
    assert post(client, "/api/skips", {"case": "zzz"}).status_code == 404
    assert client.get("/api/ratings").status_code == 405
    assert client.get("/api/cases/3").status_code == 404
    assert client.get("/api/cases/-1").status_code == 404
    assert client.get("/", headers={"Host": "rebind.example"}).status_code == 400  # DNS rebinding
    assert store.ratings() == []
    same_origin = post(client, "/api/ratings", {"case": KEY["c1"], "ratings": GOOD}, headers={"Origin": "http://localhost"})
    assert same_origin.status_code == 200 and len(store.ratings()) == 1


@pytest.mark.parametrize("path", ["/api/ratings", "/api/skips"])
def test_deeply_nested_json_is_a_400_not_a_500(served, path):
    """Issue "ground" #9: 10 KB of nested brackets raised RecursionError in the JSON parser (HTTP 500)."""
    client, store = served
    reply = post(client, path, "[" * 5000 + "]" * 5000)
    assert reply.status_code == 400 and "nested" in reply.get_json()["error"]
    reply = post(client, path, '{"case": ' * 1200 + "1" + "}" * 1200)
    assert reply.status_code == 400
    assert store.ratings() == []


@pytest.mark.parametrize("path", [
    "/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd", "/static/..%2f..%2fetc/passwd",
    "/static/%2e%2e%2fapp.py", "/static/../app.py", "/static//etc/passwd", "/../../etc/passwd",
    "/static/..\\app.py", "/etc/passwd", "/api/cases/..%2f..%2fetc%2fpasswd", "/cases.jsonl", "/store.sqlite",
])
def test_no_file_outside_the_static_folder(served, path):
    client, _ = served
    reply = client.get(path, follow_redirects=True)  # "//" redirects to the merged path, then 404
    assert reply.status_code in (400, 404)
    body = reply.get_data(as_text=True)
    assert "root:" not in body and "create_app" not in body
    assert client.get("/static/annotate.css").status_code == 200


def test_cli_serve_errors_exit_2(tmp_path, cases_file, capsys):
    assert main(["annotate", "--annotator", "a"]) == 2
    assert "--cases" in capsys.readouterr().err
    assert main(["annotate", "--cases", str(cases_file)]) == 2
    assert "--annotator" in capsys.readouterr().err
    assert main(["annotate", "--cases", str(tmp_path / "missing.jsonl"), "--annotator", "a"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["annotate", "export", "--store", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "o")]) == 2
    assert "no such annotation store" in capsys.readouterr().err


def test_cli_export_and_agreement(tmp_path, capsys):
    with AnnotationStore(tmp_path / "s.sqlite") as store:
        for case, (x, y) in enumerate([(1, 1), (2, 2), (3, 3), (3, 1)]):
            store.save_rating(f"c{case}", "alice", {"fluency": x, "semantics": x, "grammar": x}, "h")
            store.save_rating(f"c{case}", "bob", {"fluency": y, "semantics": y, "grammar": y}, "h")
    out = tmp_path / "a.jsonl"
    assert main(["annotate", "export", "--store", str(tmp_path / "s.sqlite"), "--out", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 8
    assert main(["annotate", "agreement", "--store", str(tmp_path / "s.sqlite"), "--json", str(tmp_path / "k.json")]) == 0
    text = capsys.readouterr().out
    # p_o = 3/4, marginals alice (1, 1, 2), bob (2, 1, 1) -> p_e = 5/16, κ = (3/4 - 5/16) / (11/16) = 7/11
    assert "fluency" in text and f"{7 / 11:.3f}" in text and "c3  fluency: alice=3, bob=1" in text
    assert json.loads((tmp_path / "k.json").read_text())["criteria"][0]["kappa"] == pytest.approx(7 / 11)


def _start_server(cases_file, store_path):
    cmd = [sys.executable, "-c", "import sys; from reports.cli import main; sys.exit(main())", "annotate",
           "--cases", str(cases_file), "--annotator", "alice", "--store", str(store_path), "--port", "0"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+)/", line)
        if found:
            return proc, found.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError("the annotation server did not start")


def test_killed_server_keeps_every_saved_rating(tmp_path, cases_file):
    store_path = tmp_path / "store.sqlite"
    proc, url = _start_server(cases_file, store_path)
    try:
        for case_id in ("c1", "c2"):
            request = urllib.request.Request(f"{url}/api/ratings", method="POST",
                                             data=json.dumps({"case": KEY[case_id], "ratings": GOOD}).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as reply:
                assert json.load(reply)["done"] == (1 if case_id == "c1" else 2)
        for raw in ("/static/../../../../etc/passwd", "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd"):
            conn = HTTPConnection(urlsplit(url).netloc, timeout=10)  # sends the path exactly as written
            conn.request("GET", raw)
            reply = conn.getresponse()
            assert reply.status == 404 and b"root:" not in reply.read()
            conn.close()
    finally:
        proc.send_signal(signal.SIGKILL)  # no clean shutdown: only what was committed survives
        proc.wait(timeout=10)
        proc.stderr.close()
    with AnnotationStore(store_path, create=False) as store:
        assert [(r.case_id, dict(r.scores)) for r in store.ratings()] == [("c1", GOOD), ("c2", GOOD)]


def test_changed_case_texts_void_the_old_rating(tmp_path, cases_file):
    store = AnnotationStore(tmp_path / "store.sqlite")
    client = create_app(load_cases(cases_file), store, "alice").test_client()
    post(client, "/api/ratings", {"case": KEY["c1"], "ratings": GOOD})
    changed = [dict(CASES[0], hypothesis="a different hypothesis"), *CASES[1:]]
    cases_file.write_text("".join(json.dumps(c) + "\n" for c in changed), encoding="utf-8")
    client = create_app(load_cases(cases_file), store, "alice").test_client()
    assert client.get("/api/state").get_json()["done"] == 0
    assert client.get("/api/cases/0").get_json()["ratings"] is None
    store.close()


def test_host_check_only_when_bound_to_loopback(tmp_path, cases_file):
    with AnnotationStore(tmp_path / "store.sqlite") as store:
        cases = load_cases(cases_file)
        assert create_app(cases, store, "a").test_client().get("/", headers={"Host": "10.0.0.5:8765"}).status_code == 400
        open_app = create_app(cases, store, "a", trusted_hosts=None).test_client()
        assert open_app.get("/", headers={"Host": "10.0.0.5:8765"}).status_code == 200
        assert create_app(cases, store, "a").test_client().get("/", headers={"Host": "127.0.0.1:8765"}).status_code == 200


@pytest.mark.parametrize("argv, message", [
    (["--annotator", " "], "--annotator NAME is required"),
    (["--annotator", "a\nb"], "printable"),
    (["--annotator", "a", "--port", "70000"], "--port must be 0-65535"),
])
def test_cli_serve_option_errors(cases_file, capsys, argv, message):
    assert main(["annotate", "--cases", str(cases_file), *argv]) == 2
    assert message in capsys.readouterr().err


def test_cli_port_in_use(cases_file, capsys, tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        argv = ["annotate", "--cases", str(cases_file), "--annotator", "a", "--store", str(tmp_path / "s"), "--port", port]
        assert main(argv) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_the_page_never_shows_the_suite_or_the_real_case_id(tmp_path):
    """Issue #11: the page showed ``passive_form/sfrest-...``, telling the rater the perturbation."""
    lines = [{"case_id": f"sfrest-00{i}-r0-0", "suite": "passive_form", "kind": "passive", "expectation": "invariant",
              "reference": "the restaurant serves cheap food .", "original": "x serves cheap food .",
              "variant": "cheap food is served by x ."} for i in range(2)]
    cases_file = tmp_path / "cases.jsonl"
    cases_file.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    store = AnnotationStore(tmp_path / "store.sqlite")
    client = create_app(load_cases(cases_file), store, "alice").test_client()
    seen = client.get("/").get_data(as_text=True) + client.get("/static/annotate.js").get_data(as_text=True)
    views = [client.get(f"/api/cases/{i}").get_json() for i in range(2)]
    seen += json.dumps(views) + json.dumps(client.get("/api/state").get_json())
    reply = post(client, "/api/ratings", {"case": views[0]["case"], "ratings": GOOD})
    seen += reply.get_data(as_text=True)
    for hidden in ("passive", "sfrest", "invariant", "x serves cheap food"):
        assert hidden not in seen, hidden
    assert re.fullmatch(r"[0-9a-f]{12}", views[0]["case"]) and views[0]["case"] != views[1]["case"]
    store.close()
    out = tmp_path / "ratings.jsonl"
    assert main(["annotate", "export", "--store", str(tmp_path / "store.sqlite"), "--out", str(out)]) == 0
    exported = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["case_id"], r["fluency"]) for r in exported] == [("passive_form/sfrest-000-r0-0", 2)]
