"""``rome score``: score (hypothesis, reference) pairs with any registered metrics.

Pairs go through the one engine (:mod:`rome.core.engine`): scored in chunks, committed to the
score cache and appended to the output as they finish, so an interrupted run loses at most one
chunk and ``--resume`` picks up after the last id written. Idf-like metrics are fitted on every
pair of the input (the engine's corpus rule), also when resuming.
Nothing already on disk is lost (:mod:`rome.core.files`): the output may not be the input (as a file,
whatever the spelling); an existing output is replaced or resumed only if it is a regular file written by
``rome score`` (never a device, a pipe or another file, ``--force`` or not); a run holds a lock on its
output, so a second run on it is refused while the first goes on; ``--force`` writes a new file and
renames it over the old one only when it is complete; a fresh run that fails before its first row leaves
no empty file behind.

``--resume`` makes the output complete for the input and the metrics asked for: rows not yet
written are appended; rows written by an earlier run that lack a requested metric get it
scored and added (the file is rewritten safely); a last line cut off by a kill is dropped.

It only ever *completes* a run, never mixes two: each row records what it was scored from and
with (``scored_with``: a hash of its hypothesis and references, and each metric's signature), and
``--resume`` refuses, leaving the output untouched, when a row no longer matches its input line
(edited, or lines without ids moved), a row's id is gone from the input, a requested metric's
signature differs from the one its rows were scored with (another ``--model``, setting, code or
weights; for a metric fitted on the whole input, such as CIDEr's document frequencies, lines added,
removed or edited since), or a row is not a well-formed row of ``rome score`` (edited by hand).
``--force`` scores everything again.

A row's other fields follow its input line: they are copied from the input and do not change a score
(only the hypothesis and references do, and those are checked), so ``--resume`` rewrites a row whose
input line gained, lost or changed such a field (``system``, ``meta``) instead of refusing: the output is
then the one a fresh run would write, at no scoring cost.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from rome.core.errors import InputError
from rome.core.files import OutputKind
from rome.core.jsonl import (
    dump_line,
    has_lone_surrogate,
    read_jsonl,
    repair_incomplete_tail,
    require_text,
    unique_id,
)

Item = dict[str, Any]
#: the field of each output row that records what it was scored from (``input``) and with (``signatures``)
SCORED_WITH = "scored_with"
#: what ``rome score --output`` writes: the only file ``--force`` replaces and ``--resume`` continues
SCORE_OUTPUT = OutputKind("an output of rome score", frozenset({"scores", SCORED_WITH}))


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score pairs from a JSONL file or one pair from the command line")
    src = p.add_argument_group("input (either --input or --hyp/--ref)")
    src.add_argument("--input", type=Path, help='JSONL: {"id", "hypothesis", "reference": str or [str]} '
                                                "(no reference needed when every metric is reference-free)")
    src.add_argument("--hyp", help="one hypothesis text")
    src.add_argument("--ref", action="append", help="one reference text (repeat for several)")
    p.add_argument("--metric", action="append", default=None, help="metric name, repeatable; 'all' for every metric")
    p.add_argument("--model", default=None, help="encoder for model-based metrics (HF name or local path)")
    p.add_argument("--output", type=Path, help="output JSONL (input line + 'scores')")
    p.add_argument("--resume", action="store_true",
                   help="complete an earlier run: score ids not yet in --output, and add requested metrics "
                        "missing from rows already there. Refuses (output untouched) when a row no longer "
                        "matches its input line (text edited, lines without ids moved, id gone) or a metric's "
                        "signature changed (--model, settings, code, weights): use --force to score again")
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing --output (replaced only once the new output is complete)")
    p.add_argument("--chunk-size", type=int, default=None,
                   help="pairs scored and committed per step (default 256, the engine's chunk)")
    p.add_argument("--engine", choices=("local", "processes", "ray"), default="local",
                   help="local (default: this process), processes (--workers spawned processes) or ray "
                        "(Ray actors): same input, same output")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: RAY_ADDRESS or a local instance)")
    p.add_argument("--workers", type=int, default=None,
                   help="processes or Ray actors to start (default: one per core; processes at most 4)")
    p.add_argument("--no-cache", action="store_true",
                   help="do not read or write the score cache (default: scores are cached, so a rerun is instant)")
    p.set_defaults(handler=run)


def build_metrics(names: list[str] | None, model: str | None) -> dict[str, Any]:
    from rome.core.registry import build_metrics as build
    from rome.core.registry import expand_metric_names

    return build(expand_metric_names(names or ["all"]), model)


def _metric_names(args: argparse.Namespace) -> list[str]:
    from rome.core.registry import expand_metric_names

    return expand_metric_names(args.metric or ["all"])


def _references_needed(names: list[str]) -> bool:
    from rome.core.registry import needs_reference

    return any(needs_reference(name) for name in names)


def run(args: argparse.Namespace) -> int:
    if args.input is None and args.hyp is None:
        raise InputError("give --input FILE, or --hyp TEXT with --ref TEXT")
    if args.input is not None and args.hyp is not None:
        raise InputError("give either --input or --hyp/--ref, not both")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise InputError("--chunk-size must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise InputError("--workers must be at least 1")
    if args.hyp is not None:
        return _score_single(args)
    return _score_file(args)


def _score_single(args: argparse.Namespace) -> int:
    for flag, text in [("--hyp", args.hyp), *(("--ref", ref) for ref in args.ref or [])]:
        if has_lone_surrogate(text):
            raise InputError(f"{flag} is not valid UTF-8 text (check the terminal's encoding)")
    names = _metric_names(args)
    if not args.ref and _references_needed(names):
        raise InputError("--hyp needs at least one --ref")
    refs: str | list[str] | None = None if not args.ref else args.ref[0] if len(args.ref) == 1 else args.ref
    from rome.core.engine import FitCorpus, ScoringEngine

    engine = ScoringEngine.build(names, args.model)
    corpus = FitCorpus.of("rome score --hyp/--ref: the one pair", [(args.hyp, refs)])
    rows = []
    for name, metric in engine.metrics.items():
        explain = getattr(metric, "explain", None)
        if callable(explain) and refs is not None:  # metrics with components (RoMe) show them, as in its Table 2
            for key, value in explain(args.hyp, refs).items():
                rows.append((key, value, ""))
        else:
            score = engine.score([(args.hyp, refs)], corpus, names=[name])[name][0]
            rows.append((name, float(score), engine.report.signatures[name]))
    width = max(len(r[0]) for r in rows)
    for key, value, sig in rows:
        print(f"{key:<{width}}  {value:9.4f}  {sig}".rstrip())
    return 0


def _load_pairs(path: Path, references_needed: bool = True) -> list[Item]:
    items: list[Item] = []
    seen: dict[str, tuple[int, bool]] = {}
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        unique_id(obj, number, seen, where)
        obj.setdefault("id", number)
        require_text(obj, "hypothesis", where)
        if references_needed or "reference" in obj:
            require_text(obj, "reference", where, allow_list=True)
        items.append(obj)
    if not items:
        raise InputError(f"{path}: no pairs to score")
    return items


def _check_paths(args: argparse.Namespace) -> None:
    """The output may be written: not the input, new or an output of rome score (see :mod:`rome.core.files`)."""
    from rome.core.files import check_output

    check_output(args.output, SCORE_OUTPUT, inputs=[("the input file", args.input)],
                 replace=args.resume or args.force, exists_hint="pass --resume to continue it or --force to overwrite it")


def _score_file(args: argparse.Namespace) -> int:
    from rome.core.files import output_lock

    if args.output is None:
        raise InputError("--input needs --output FILE")
    if args.resume and args.force:
        raise InputError("give --resume or --force, not both (--resume keeps the output, --force replaces it)")
    _check_paths(args)  # before any work; again under the lock, which only then is taken (it makes the folder)
    names = _metric_names(args)
    items = _load_pairs(args.input, _references_needed(names))
    with output_lock(args.output):  # a second run on this output is refused until this one ends
        _check_paths(args)
        return _score_locked(args, names, items)


def _score_locked(args: argparse.Namespace, names: list[str], items: list[Item]) -> int:
    from rome.core.cache import ScoreCache, default_cache_path
    from rome.core.engine import CHUNK_SIZE, FitCorpus, ScoringEngine, cache_signature, get_executor
    from rome.core.files import replaced_when_complete

    executor = get_executor(args.engine, workers=args.workers, address=args.ray_address)
    cache = ScoreCache(None if args.no_cache else default_cache_path())
    engine = ScoringEngine.build(names, args.model, cache, executor, args.chunk_size or CHUNK_SIZE)
    # the corpus rule: idf-like metrics are fitted on every pair of the input, also when resuming
    corpus = FitCorpus.of(f"rome score --input {args.input}: all {len(items)} lines", _pairs(items))
    args.signatures = {name: cache_signature(metric, corpus) for name, metric in engine.metrics.items()}
    if args.resume and args.output.exists():
        todo = _resume(args, engine, corpus, items, names)
        written = _append(args.output, _scored(args, engine, todo, corpus, names))
    elif args.output.exists():  # --force: the old output stays whole until the new one is
        with replaced_when_complete(args.output) as out:
            written = _write(out, _scored(args, engine, items, corpus, names))
    else:
        written = _append(args.output, _scored(args, engine, items, corpus, names))
    print(f"wrote {written} scored pairs to {args.output}", file=sys.stderr)
    return 0


def _pairs(items: list[Item]) -> list[tuple[str, Any]]:
    return [(item["hypothesis"], item.get("reference")) for item in items]


def input_hash(item: Item) -> str:
    """What a row was scored from: its hypothesis and reference(s), hashed (a str and a one-item list differ)."""
    blob = json.dumps([item.get("hypothesis"), item.get("reference")], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


def _scored(args: argparse.Namespace, engine, todo: list[Item], corpus,
            names: list[str]) -> Iterator[list[Item]]:
    """Scored rows of ``todo`` in input order, a slice as soon as it is scored (progress bar on long runs),
    each row recording its input hash and the signatures."""
    from tqdm import tqdm

    with tqdm(total=len(todo), unit="pair", disable=len(todo) < engine.chunk_size, file=sys.stderr) as bar:
        if todo:
            for start, end, scores in engine.stream(_pairs(todo), corpus, names):
                bar.update(end - start)
                yield [{**todo[i], "scores": {n: float(scores[n][i - start]) for n in names},
                        SCORED_WITH: {"input": input_hash(todo[i]),
                                      "signatures": {n: args.signatures[n] for n in names}}}
                       for i in range(start, end)]


def _write(out: TextIO, chunks: Iterator[list[Item]]) -> int:
    written = 0
    for scored in chunks:
        out.writelines(dump_line(row) for row in scored)
        out.flush()
        written += len(scored)
    return written


def _append(path: Path, chunks: Iterator[list[Item]]) -> int:
    """Append chunks as they finish; a file this call created is removed if no row reached it."""
    created = not path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    try:
        with path.open("a", encoding="utf-8") as out:
            for scored in chunks:
                written += _write(out, iter([scored]))
    except BaseException:
        if created and written == 0:
            path.unlink(missing_ok=True)
        raise
    return written


def _resume(args: argparse.Namespace, engine, corpus, items: list[Item], names: list[str]) -> list[Item]:
    """Repair and complete the rows already written; returns the items still to score."""
    notice = repair_incomplete_tail(args.output)
    if notice:
        print(f"rome score: {notice}", file=sys.stderr)
    numbered = list(read_jsonl(args.output))
    rows = [obj for _, obj in numbered]
    by_id = {str(row.get("id")): row for row in rows}
    _refuse_stale(args, items, numbered, names)
    followed = _follow_input_lines(items, by_id)
    todo: list[Item] = []
    lacking: dict[tuple[str, ...], list[Item]] = {}
    for item in items:
        row = by_id.get(str(item["id"]))
        if row is None:
            todo.append(item)
            continue
        have = row.get("scores") if isinstance(row.get("scores"), dict) else {}
        missing = tuple(name for name in names if name not in have)
        if missing:
            lacking.setdefault(missing, []).append(item)
    if followed:
        print(f"updated {followed} rows whose input lines changed fields other than the texts", file=sys.stderr)
    if lacking:
        _add_missing_scores(args, engine, corpus, by_id, lacking)
    if lacking or followed:
        _rewrite(args.output, rows)
    print(f"resuming: {len(items) - len(todo)} of {len(items)} pairs already in {args.output}", file=sys.stderr)
    return todo


def _malformed(row: Item) -> str | None:
    """What is wrong with a row that has a ``scored_with`` record, or ``None`` for a well-formed row."""
    record, scores = row[SCORED_WITH], row.get("scores")
    if "id" not in row:
        return "it has no 'id'"
    if not isinstance(record.get("input"), str):
        return f"{SCORED_WITH}.input is not a hash"
    signatures = record.get("signatures")
    if not isinstance(signatures, dict) or not all(isinstance(v, str) for v in signatures.values()):
        return f"{SCORED_WITH}.signatures is not an object of signatures"
    if not isinstance(scores, dict) or not all(isinstance(v, int | float) and not isinstance(v, bool)
                                               for v in scores.values()):
        return "'scores' is not an object of numbers"
    return None


def _refuse_stale(args: argparse.Namespace, items: list[Item], numbered: list[tuple[int, Item]],
                  names: list[str]) -> None:
    """Refuse to complete an output that another input or other metric settings produced (see the module doc)."""
    out = args.output
    by_id = {str(item["id"]): item for item in items}
    force = "; --force scores everything again (or give a new --output)"
    unchecked = [(n, row) for n, row in numbered if not isinstance(row.get(SCORED_WITH), dict)]
    if unchecked:
        raise InputError(f"{out}:{unchecked[0][0]}: {len(unchecked)} rows have no {SCORED_WITH!r} record (written "
                         f"by an older rome score), so whether they match this input and these metrics cannot be "
                         f"checked{force}")
    for n, row in numbered:
        if why := _malformed(row):
            raise InputError(f"{out}:{n}: not a row as rome score writes it ({why}; edited by hand?){force}")
    seen: dict[str, int] = {}
    for n, row in numbered:
        if str(row["id"]) in seen:
            raise InputError(f"{out}:{n}: id {row['id']!r} is in line {seen[str(row['id'])]} too: the output holds "
                             f"two runs' rows{force}")
        seen[str(row["id"])] = n
    gone = [(n, row) for n, row in numbered if str(row.get("id")) not in by_id]
    changed = [(n, row) for n, row in numbered
               if str(row.get("id")) in by_id and row[SCORED_WITH].get("input") != input_hash(by_id[str(row["id"])])]
    if gone or changed:
        n, row = (changed or gone)[0]
        what = ("its hypothesis or references changed since it was scored" if changed
                else "no input line has this id any more")
        raise InputError(f"{out}: {len(changed) + len(gone)} rows no longer match {args.input} (first: line {n}, "
                         f"id {row.get('id')!r}: {what}; lines without an id are numbered by line, so moving "
                         f"them changes their ids){force}")
    for name in names:
        old = [(n, row[SCORED_WITH]["signatures"].get(name)) for n, row in numbered if name in row["scores"]]
        stale = [(n, sig) for n, sig in old if sig != args.signatures[name]]
        if stale:
            raise InputError(f"{out}: {name} in {len(stale)} rows was scored with a different signature "
                             f"(line {stale[0][0]}: {stale[0][1]}; now: {args.signatures[name]}): "
                             f"{_why_signature_differs(stale[0][1], args.signatures[name])}{force}")


def _why_signature_differs(old: str | None, new: str) -> str:
    """The cause a signature change points to: only the corpus part (``|corpus:``) differs when the metric is
    fitted on the whole input and the input's pairs changed; anything else is the metric's own settings."""
    def without_corpus(signature: str) -> str:
        return signature.split("|corpus:", 1)[0]

    if old is not None and "|corpus:" in new and without_corpus(old) == without_corpus(new):
        return ("this metric is fitted on every pair of the input (its idf or document frequencies), and the "
                "input's pairs changed since (a line added, removed or edited), so the rows written score "
                "against another corpus")
    return "another --model, setting, code or weights"


def _follow_input_lines(items: list[Item], by_id: dict[str, Item]) -> int:
    """Make each row already written its input line plus its scores again (fields and their order, as a fresh
    run writes them); returns how many rows changed. Only called once the texts are known to be unchanged."""
    changed = 0
    for item in items:
        row = by_id.get(str(item["id"]))
        if row is None:
            continue
        fresh = {**item, "scores": row["scores"], SCORED_WITH: row[SCORED_WITH]}
        if list(fresh.items()) != list(row.items()):
            row.clear()
            row.update(fresh)
            changed += 1
    return changed


def _rewrite(path: Path, rows: list[Item]) -> None:
    from rome.core.files import replaced_when_complete

    with replaced_when_complete(path) as out:
        out.writelines(dump_line(row) for row in rows)


def _add_missing_scores(args: argparse.Namespace, engine, corpus, by_id: dict[str, Item],
                        lacking: dict[tuple[str, ...], list[Item]]) -> None:
    """Score the requested metrics that rows already written lack (the caller rewrites the file)."""
    for missing, group in lacking.items():
        print(f"adding {', '.join(missing)} to {len(group)} rows already in {args.output}", file=sys.stderr)
        for scored in _scored(args, engine, group, corpus, list(missing)):
            for new in scored:
                row = by_id[str(new["id"])]
                if not isinstance(row.get("scores"), dict):
                    row["scores"] = {}
                row["scores"].update(new["scores"])
                row[SCORED_WITH].setdefault("signatures", {}).update(new[SCORED_WITH]["signatures"])
