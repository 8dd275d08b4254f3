"""The cases to annotate, read from a suite's ``cases.jsonl`` or any JSONL with id/reference/hypothesis."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl, require_text


@dataclass(frozen=True)
class AnnotationPair:
    """One reference/hypothesis pair; ``references`` holds one or more references."""

    case_id: str
    references: tuple[str, ...]
    hypothesis: str

    @property
    def public_id(self) -> str:
        """What the page shows and the browser sends back: opaque, so a suite-qualified id
        (``passive_form/sfrest-...``) cannot tell the rater which perturbation made the text."""
        return hashlib.sha256(self.case_id.encode("utf-8")).hexdigest()[:12]

    @property
    def text_hash(self) -> str:
        """Fingerprint of the texts, so a rating is not silently carried over to a changed case."""
        payload = json.dumps([self.references, self.hypothesis], ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def _case_from(obj: dict, where: str) -> AnnotationPair:
    """Suite output (``case_id``, ``reference``, ``variant``) or plain (``id``, ``reference``, ``hypothesis``).

    A line that names its ``suite`` (every suite output does) gets the id ``suite/case_id``:
    suites reuse the source sentence's case ids, and the robustness report reads exported
    ids in this form (``reports.robustness.annotation_key``), so ratings never cross suites.
    """
    if "case_id" in obj and "variant" in obj:
        key, hyp_key = "case_id", "variant"
    elif "id" in obj and "hypothesis" in obj:
        key, hyp_key = "id", "hypothesis"
    else:
        raise InputError(f"{where}: expected fields case_id/reference/variant (a suite's cases.jsonl) "
                         "or id/reference/hypothesis")
    case_id = obj[key]
    if not isinstance(case_id, (str, int)) or isinstance(case_id, bool) or not str(case_id).strip():
        raise InputError(f"{where}: field {key!r} must be a non-empty string or an integer")
    reference = require_text(obj, "reference", where, allow_list=True)
    hypothesis = require_text(obj, hyp_key, where)
    references = (reference,) if isinstance(reference, str) else tuple(reference)
    suite = obj.get("suite")
    if suite is not None and (not isinstance(suite, str) or not suite.strip()):
        raise InputError(f"{where}: field 'suite' must be a non-empty string")
    return AnnotationPair(f"{suite.strip()}/{case_id}" if suite else str(case_id), references, hypothesis)


def load_cases(path: str | Path) -> list[AnnotationPair]:
    """All cases of ``path`` in file order; duplicate ids and empty files are input errors."""
    cases: list[AnnotationPair] = []
    seen: dict[str, int] = {}
    for number, obj in read_jsonl(path):
        case = _case_from(obj, f"{path}:{number}")
        if case.case_id in seen:
            raise InputError(f"{path}:{number}: duplicate id {case.case_id!r} (first on line {seen[case.case_id]})")
        seen[case.case_id] = number
        cases.append(case)
    if not cases:
        raise InputError(f"{path}: no cases")
    return cases
