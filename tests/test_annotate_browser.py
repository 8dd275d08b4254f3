"""End to end in a real headless browser: Debian's chromium driven by Selenium through chromedriver.

Starts the app on 127.0.0.1 on a free port, rates four cases (keyboard and mouse), reloads and
sees the progress kept, then exports and checks the JSONL. Nothing is downloaded: the browser and
driver are the system's (``scripts/install.sh`` installs them); without them the test skips
(fails under ``ROME_REQUIRE_BROWSER=1``; selenium missing fails under ``ROME_REQUIRE_EXTRAS=1``).
"""

from __future__ import annotations

import json
import shutil
import threading

import pytest
from require_extras import REQUIRE_BROWSER, import_or_missing, missing

from reports.annotate.app import create_app, serve
from reports.annotate.cases import load_cases
from reports.annotate.store import AnnotationStore
from reports.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    missing("no chromium/chromedriver installed (apt-get install -y chromium chromium-driver)", REQUIRE_BROWSER,
            module_level=True)
webdriver = import_or_missing("selenium.webdriver", "selenium is not installed (pip install selenium)",
                              module_level=True)

XSS = "<script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\"> cheap food"
CASES = [{"id": f"c{i}", "reference": f"reference number {i} .", "hypothesis": f"hypothesis number {i} ."}
         for i in range(5)]
CASES[2]["hypothesis"] = XSS
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1200,800"]


@pytest.fixture
def server(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text("".join(json.dumps(c) + "\n" for c in CASES), encoding="utf-8")
    store = AnnotationStore(tmp_path / "store.sqlite")
    httpd = serve(create_app(load_cases(cases), store, "alice"), "127.0.0.1", 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.port}/", tmp_path / "store.sqlite"
    httpd.shutdown()
    store.close()


@pytest.fixture
def browser(tmp_path, monkeypatch):
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must never try to fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*CHROME_FLAGS, f"--user-data-dir={tmp_path / 'chrome-profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


def open_page(driver, url):
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    WebDriverWait(driver, 20).until(lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true")


def text(driver, element_id):
    return driver.find_element("id", element_id).text


def wait_for(driver, element_id, expected):
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 10).until(lambda d: text(d, element_id) == expected,
                                    message=f"#{element_id} never read {expected!r} (last: {text(driver, element_id)!r})")


def keys(driver, *sequence):
    body = driver.find_element("tag name", "body")
    for key in sequence:
        body.send_keys(key)


def test_rate_reload_resume_skip_export(server, browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    url, store_path = server
    open_page(browser, url)
    assert text(browser, "progress-text") == "0 / 5 rated"
    assert text(browser, "position") == "1" and text(browser, "hypothesis") == "hypothesis number 0 ."

    # cases 1 and 2 in one burst of keys: what is typed while a save is on its way is not lost
    browser.find_element("tag name", "body").send_keys("231" + Keys.ENTER + "123" + Keys.ENTER)
    wait_for(browser, "progress-text", "2 / 5 rated")
    wait_for(browser, "position", "3")
    # the markup case shows as text, and none of it ran
    assert text(browser, "hypothesis") == XSS
    assert browser.find_elements("css selector", "#hypothesis *") == []
    assert browser.execute_script("return window.pwned === undefined")

    for criterion, value in (("fluency", 1), ("semantics", 2), ("grammar", 3)):  # case 3 by mouse
        browser.find_element("css selector", f'fieldset[data-criterion="{criterion}"] button[data-value="{value}"]').click()
    browser.find_element("id", "save").click()
    wait_for(browser, "progress-text", "3 / 5 rated")

    keys(browser, "3", "3")  # incomplete: Enter must not save
    keys(browser, Keys.ENTER)
    wait_for(browser, "message", "Rate every criterion first (missing: grammar).")
    keys(browser, "3", Keys.ENTER)
    wait_for(browser, "progress-text", "4 / 5 rated")
    wait_for(browser, "position", "5")

    browser.refresh()
    open_page(browser, url)
    assert text(browser, "progress-text") == "4 / 5 rated"
    assert text(browser, "position") == "5" and text(browser, "status") == "not rated"
    keys(browser, Keys.ARROW_LEFT)  # back to case 4: its saved ratings are shown
    wait_for(browser, "position", "4")
    assert text(browser, "status") == "saved"
    chosen = [b.get_attribute("data-value") for b in browser.find_elements("css selector", "button.chosen")]
    assert chosen == ["3", "3", "3"]
    keys(browser, Keys.ARROW_RIGHT, "s")  # skip case 5
    wait_for(browser, "progress-text", "4 / 5 rated, 1 skipped")

    out = tmp_path / "annotations.jsonl"
    assert main(["annotate", "export", "--store", str(store_path), "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines == [
        {"case_id": "c0", "annotator": "alice", "fluency": 2, "semantics": 3, "grammar": 1},
        {"case_id": "c1", "annotator": "alice", "fluency": 1, "semantics": 2, "grammar": 3},
        {"case_id": "c2", "annotator": "alice", "fluency": 1, "semantics": 2, "grammar": 3},
        {"case_id": "c3", "annotator": "alice", "fluency": 3, "semantics": 3, "grammar": 3},
    ]
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == [], severe


VALIDITY_LINES = [
    {"card": "adjective", "suite": "adjective_replacement", "corpus": "dialogue", "source_id": f"s{i}",
     "text": "x serves cheap food .", "variant": variant, "edits": edits, "expectation": expectation,
     "label": "", "note": "", "fingerprint": "fp", "seed": 1, "n": 60}
    for i, (variant, edits, expectation) in enumerate([
        ("x serves inexpensive food .", [{"start": 9, "end": 14, "old": "cheap", "new": "inexpensive"}], "invariant"),
        ("x serves expensive food .", [{"start": 9, "end": 14, "old": "cheap", "new": "expensive"}], "decrease"),
        (XSS, [], "invariant"),
    ])
]


def test_validity_mode_judge_reload_and_write_the_card(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    from reports.annotate.judgements import JudgementStore, load_todo_card
    from reports.annotate.validity import create_validity_app
    from reports.validity import load_card

    todo = tmp_path / "adjective.todo.jsonl"
    todo.write_text("".join(json.dumps(line) + "\n" for line in VALIDITY_LINES), encoding="utf-8")
    store = JudgementStore(tmp_path / "store.sqlite")
    httpd = serve(create_validity_app(load_todo_card(todo), store, "alice", tmp_path / "adjective.jsonl"),
                  "127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.port}/"
    try:
        open_page(browser, url)
        assert text(browser, "progress-text") == "0 / 3 judged" and text(browser, "original") == "x serves cheap food ."
        assert [m.text for m in browser.find_elements("css selector", "#variant mark")] == ["inexpensive"]
        assert [b.get_attribute("data-label") for b in browser.find_elements("css selector", "#labels button")] == [
            "valid", "meaning_changed", "ungrammatical", "awkward"]
        keys(browser, "1", Keys.ENTER)
        wait_for(browser, "position", "2")
        wait_for(browser, "progress-text", "1 / 3 judged")
        keys(browser, "3", "n")  # broken, then a note; Enter in the note saves
        browser.find_element("id", "note").send_keys("reversed?" + Keys.ENTER)
        wait_for(browser, "position", "3")
        assert text(browser, "variant") == XSS and browser.find_elements("css selector", "#variant *") == []
        assert browser.execute_script("return window.pwned === undefined")
        keys(browser, Keys.ENTER)  # no label yet: refused
        wait_for(browser, "message", "Choose a label first.")
        browser.find_element("css selector", '#labels button[data-label="meaning_changed"]').click()
        browser.find_element("id", "save").click()
        wait_for(browser, "message", "All 3 lines judged; card written: adjective.jsonl.")
        browser.refresh()
        open_page(browser, url)
        assert text(browser, "progress-text") == "3 / 3 judged" and text(browser, "position") == "1"
        keys(browser, Keys.ARROW_RIGHT)
        wait_for(browser, "position", "2")
        assert browser.find_element("id", "note").get_attribute("value") == "reversed?"
        assert [b.get_attribute("data-label") for b in browser.find_elements("css selector", "button.chosen")] == ["broken"]
        severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == [], severe
    finally:
        httpd.shutdown()
        store.close()
    card = load_card(tmp_path / "adjective.jsonl")
    assert [(x["label"], x["note"]) for x in card] == [("valid", ""), ("broken", "reversed?"), ("meaning_changed", "")]
