"""Entity replacement (RoMe §4.6 case 1, CheckList style): named entities swapped for others of the type.

"The population of Germany" -> "The population of England". Entities are found with the project's
parser (``rome.core.parsing.get_parser(name)``: spaCy by default; ``parser="stanza"`` for users who
have Stanza's English models, which are never detected or downloaded automatically).
Replacements come first from the *dataset being perturbed* (an :class:`EntityPool`, built with
:meth:`EntityReplacement.from_corpus`), as in the paper; an entity the pool cannot replace falls
back to CheckList's ``Perturb.change_names`` (PERSON), ``change_location`` (GPE, CheckList's city and
country lists) and ``change_number`` (numbers within 20 %, in CARDINAL/MONEY/QUANTITY/PERCENT).

Expectation: ``decrease``. The paper calls this an INV test after CheckList, whose INV tests
classifiers whose label must not change; a reference-based metric compares the variant with a
reference that still names the original entity, so the meaning differs and the score should drop.
``expectation="invariant"`` is accepted for users who test something else (e.g. a reference-free
fluency score, which a name swap should not move), and is recorded in the variant.

Without checklist only the dataset pool is used (the lexicon fall-back is lost); say so in ``meta``.
A possessive keeps its "'s" (the entity span ends before it), and a name inside a hyphenated
compound ("Jones-compliant") is not replaced: the compound's other part still refers to the old name.

The rules of :mod:`perturbations.entity.rules` (grammar, the parse, WordNet, lemminflect) keep the
replacement "a different entity of a sensible type" on any English text: a span is trimmed to its name
tokens; names that take "the" (the Netherlands, the United States) are neither replaced nor used; a
PERSON that WordNet or a preposition of place says is a place or building, a person's name used as a
term's modifier ("Carter constant"), a name part glued to another entity ("College of William" + "and
Mary") and a number inside a title ("Volume 1") are left alone, and so are a PERSON written in capitals (an
acronym or a program: "JAMES is computed on trees") or in lower case (on lower-cased text the tag is a guess,
often a place: "the inn on castro", "martin luther king square"), a name cut at its surname particles ("Hugo ter" +
"Molen"), an author of an author-date citation ("Whitfield et al. (2009)", "(Moreau and Whitfield, 2012)")
and a proprietor's name in a firm's ("Edwin Marsh & Sons"); NORP entities are nationalities or
groups only, plural for plural; a changed count of one makes its noun agree ("1 ton" -> "2 tons").
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from perturbations import thirdparty
from perturbations.base import Edit, Expectation, Perturbation, Result, Variant, apply_edits
from perturbations.entity import rules
from perturbations.language.articles import with_article_fixes
from perturbations.language.names import sentence_starts

#: CheckList's perturbation for each entity label it can handle.
CHECKLIST_FUNCTIONS = {
    "PERSON": "change_names",
    "GPE": "change_location",
    "CARDINAL": "change_number",
    "MONEY": "change_number",
    "QUANTITY": "change_number",
    "PERCENT": "change_number",
}
#: CheckList draws tried for one entity before it is left alone
CHECKLIST_TRIES = 5


@dataclass(frozen=True)
class EntityPool:
    """Distinct entity strings per label, sorted so a seeded choice is reproducible."""

    by_label: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, pool: Mapping[str, Iterable[str]]) -> EntityPool:
        return cls({label: tuple(sorted(set(texts))) for label, texts in pool.items()})

    @classmethod
    def from_corpus(cls, texts: Iterable[str], parser=None) -> EntityPool:
        """Collect the named entities of ``texts`` (parsed in one batch): each trimmed to its name, without a
        possessive, and only where :func:`replaceable` would replace it (a "PERSON" that is the object of
        "in" is no person to put elsewhere)."""
        from rome.core.parsing import get_parser

        parser = parser or get_parser()
        found: dict[str, set[str]] = {}
        texts = [t for t in texts if isinstance(t, str) and t.strip()]
        for parsed in parser.parse(texts):
            starts = sentence_starts(parsed)
            for ent in parsed.entities:
                span = entity_span(parsed, ent)
                if span is None:
                    continue
                first, last = parsed.tokens[span[0]], parsed.tokens[span[1] - 1]
                name = parsed.text[first.idx : last.idx + len(last.text)].strip()
                if replaceable(parsed, ent, span, name, span[0] in starts):  # its type is doubtful otherwise
                    found.setdefault(ent.label, set()).add(name)
        return cls.from_mapping(found)

    def candidates(self, label: str, current: str) -> list[str]:
        return [t for t in self.by_label.get(label, ()) if t.casefold() != current.strip().casefold()]

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_label.values())


class EntityReplacement(Perturbation):
    """Replace ``"all"`` named entities, or ``"one"`` chosen at random, by same-type entities."""

    kind = "entity"
    parses = True

    def __init__(
        self,
        pool: EntityPool | Mapping[str, Iterable[str]] | None = None,
        mode: Literal["all", "one"] = "all",
        use_checklist: bool | None = None,
        expectation: Expectation = "decrease",
        parser: str | None = None,
    ) -> None:
        if mode not in ("all", "one"):
            raise ValueError("mode must be 'all' or 'one'")
        if expectation not in ("decrease", "invariant"):
            raise ValueError("expectation must be 'decrease' or 'invariant'")
        if pool is not None and not isinstance(pool, EntityPool):
            pool = EntityPool.from_mapping(pool)
        self.pool = pool or EntityPool()
        self.mode = mode
        self.use_checklist = use_checklist
        self.expectation = expectation
        self.parser = parser

    @classmethod
    def from_corpus(cls, texts: Iterable[str], parser: str | None = None, **kwargs) -> EntityReplacement:
        """A replacement drawing from the entities of ``texts`` (the dataset being perturbed)."""
        from rome.core.parsing import get_parser

        return cls(EntityPool.from_corpus(texts, get_parser(parser)), parser=parser, **kwargs)

    def fit(self, texts: Iterable[str]) -> EntityReplacement:
        """Add the entities of ``texts`` (the dataset about to be perturbed) to the pool; returns self.

        For callers that build perturbations by kind first (``rome perturb``) and see the data later.
        """
        from rome.core.parsing import get_parser

        found = EntityPool.from_corpus(texts, get_parser(self.parser))
        merged = {label: [*self.pool.by_label.get(label, ()), *found.by_label.get(label, ())]
                  for label in {*self.pool.by_label, *found.by_label}}
        self.pool = EntityPool.from_mapping(merged)
        return self

    def _checklist_on(self) -> bool:
        return self.use_checklist is not False and (self.use_checklist or thirdparty.available("checklist"))

    def describe(self) -> dict:
        return {"kind": self.kind, "mode": self.mode, "pool_size": len(self.pool), "checklist": self._checklist_on(),
                "expectation": self.expectation}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        if not parsed.entities:
            return Result.skip(text, "no named entity")
        order = list(parsed.entities)
        if self.mode == "one":
            rng.shuffle(order)
        in_text = {e.text.strip().casefold() for e in parsed.entities}
        starts = sentence_starts(parsed)
        edits, replaced, mapping = [], [], {}
        for ent in order:
            span = entity_span(parsed, ent)
            if span is None:
                continue
            start = parsed.tokens[span[0]].idx
            last = parsed.tokens[span[1] - 1]
            old = text[start : last.idx + len(last.text)]
            if not replaceable(parsed, ent, span, old, span[0] in starts):
                continue
            possessive = span[1] < len(parsed.tokens) and parsed.tokens[span[1]].tag == "POS"
            choice = mapping.get(old) or self._replacement(ent.label, old, parsed.tokens[span[0] : span[1]], rng,
                                                           in_text, possessive)
            if choice is None:
                continue
            agreement = number_agreement(parsed, span, choice[0])
            if agreement is None:
                continue  # "1 ton" -> "2 ..." with no plural lemminflect knows
            new, noun_edit = agreement
            mapping[old] = choice  # the same entity twice gets the same replacement
            in_text.add(choice[0].casefold())  # two different entities never become the same one
            edits.append(Edit(start, start + len(old), old, new))
            if noun_edit is not None:
                edits.append(noun_edit)
            replaced.append((start, {"label": ent.label, "old": old, "new": choice[0], "source": choice[1]}))
            if self.mode == "one":
                break
        if not edits:
            return Result.skip(text, f"no replacement of the same type for {[e.label for e in parsed.entities]}")
        meta = {"replacements": [r for _, r in sorted(replaced, key=lambda r: r[0])], "parser": parsed.parser,
                "checklist": self._checklist_on()}
        if not meta["checklist"]:
            meta["note"] = "checklist not available: only the dataset pool was used"
        edits = with_article_fixes(text, edits)  # "an indian" -> "a chinese"
        variant = Variant(apply_edits(text, edits), self.kind, self.expectation, tuple(sorted(edits, key=lambda e: e.start)), meta)
        return Result(text, (variant,))

    def _replacement(self, label: str, old: str, tokens: Sequence, rng: random.Random,
                     taken: set[str], possessive: bool = False) -> tuple[str, str] | None:
        candidates = [c for c in self.pool.candidates(label, old)
                      if c.casefold() not in taken and same_shape(c, old) and fits(label, c, old, possessive)]
        if candidates:
            return rng.choice(candidates), "dataset"
        if label in CHECKLIST_FUNCTIONS and self._checklist_on():
            for _ in range(CHECKLIST_TRIES):  # a lexicon name may not fit here ("New York" takes no bare slot)
                new = (_checklist_replacement(label, tokens, rng.randrange(2**32)) or "").strip()
                if (new and new.casefold() not in taken and new.casefold() != old.strip().casefold()
                        and same_shape(new, old) and fits(label, new, old, possessive)):
                    return new, "checklist"
        return None


def replaceable(parsed, ent, span: tuple[int, int], old: str, sentence_start: bool) -> bool:
    """Whether the entity may be replaced at all (see :mod:`perturbations.entity.rules`): not a name that
    takes "the", not a place or building tagged PERSON, not an eponym, not an acronym or a lower-case name
    tagged PERSON, not a part of a split name (also one cut at its surname particles), not an author in an
    author-date citation, not (part of) a firm's name, not a number inside a title, not a NORP entity that
    names no group."""
    tokens, (start, end) = parsed.tokens, span
    label = ent.label
    if label in rules.ARTICLE_LABELS and (rules.needs_article(old) or rules.preceded_by_article(tokens, start)):
        return False
    if label == "PERSON" and (rules.is_place_or_body(old) or rules.is_locative_object(tokens, start, end)
                              or rules.is_eponym(tokens, start, end)):
        return False
    if label == "PERSON" and (rules.is_acronym(old) or rules.is_lower_case_name(old, sentence_start)):
        return False
    if label == "NORP" and not rules.is_group_name(old):
        return False
    if label in rules.NAME_LABELS and (rules.joined_to_other_name(tokens, parsed.entities, start, end, label)
                                       or rules.splits_particle_name(tokens, start, end)
                                       or rules.is_citation_author(tokens, start, end)
                                       or rules.is_firm_name(tokens, start, end, label)):
        return False
    return not rules.is_number_in_title(tokens, start, end, label, sentence_start)


def fits(label: str, new: str, old: str, possessive: bool) -> bool:
    """Whether ``new`` can stand where ``old`` stood: no name that needs "the" where a bare name was; a person
    for a person only if WordNet does not call it a place; a nationality for a nationality, plural for
    plural; before a possessive "'s" no name ending in "s" ("United States's": a plural takes a bare
    apostrophe, and style guides differ on singulars, Chicago Manual of Style 7.16-7.19)."""
    if possessive and new.endswith(("s", "S")):
        return False
    if label in rules.ARTICLE_LABELS and rules.needs_article(new):
        return False
    if label == "PERSON" and (rules.is_place_or_body(new) or rules.is_acronym(new)):
        return False
    if label == "NORP":
        return rules.is_group_name(new) and rules.is_plural_group(new) == rules.is_plural_group(old)
    return True


def number_agreement(parsed, span: tuple[int, int], new: str) -> tuple[str, Edit | None] | None:
    """``new`` and an edit of the counted noun so that it agrees with the new number ("about 1 ton" ->
    "about 2 tons", "1 page" -> "3 pages"; lemminflect's plural), or ``None`` when no agreeing form is known.
    The number one takes a singular noun, every other number a plural (Quirk et al. 1985 §5.74)."""
    tokens = parsed.tokens
    noun = rules.counted_noun(tokens, span[0], span[1])
    old_number = rules.number_word(" ".join(t.text for t in tokens[span[0] : span[1]]))
    new_number = rules.number_word(new)
    if noun is None or old_number is None or new_number is None or rules.is_one(old_number) == rules.is_one(new_number):
        return new, None
    form = rules.agreeing_noun(noun.text, noun.tag, plural=not rules.is_one(new_number))
    if form is None:
        return None
    if noun.i < span[1]:  # the noun is inside the entity: change it in the new text if it is there
        matches = list(re.finditer(rf"(?<!\w){re.escape(noun.text)}(?!\w)", new))
        if not matches:
            return new, None  # a pool entry brings its own noun ("5 miles")
        last = matches[-1]
        return new[: last.start()] + form + new[last.end() :], None
    return new, Edit(noun.idx, noun.idx + len(noun.text), noun.text, form)


def same_shape(new: str, old: str) -> bool:
    """A replacement starts like the entity it replaces: a capital for a capital, a digit for a digit, a
    lower-case word for a lower-case one. The tagger's entities include lower-cased common words
    ("bush", "lorry") and relative dates ("next year" for "Friday" after "on"); a name must stay a name
    and a numeral a numeral, or the variant is broken rather than changed."""
    def shape(text: str) -> str:
        first = text.strip()[:1]
        return "digit" if first.isdigit() else "upper" if first.isupper() else "lower"

    return shape(new) == shape(old)


def entity_span(parsed, ent) -> tuple[int, int] | None:
    """The tokens to replace for ``ent``: without a trailing possessive "'s" (it stays: "George W. Bush's
    war" -> "Jane Doe's war"), or ``None`` for a name glued to a neighbour by a hyphen or slash
    ("Jones-compliant ships"): that is part of a compound word, whose other part refers to it."""
    tokens = parsed.tokens
    start, end = rules.trim_to_name(tokens, ent.start, ent.end, ent.label)
    while end > start and tokens[end - 1].tag == "POS":
        end -= 1
    if end == start:
        return None
    before = tokens[start - 1] if start > 0 else None
    after = tokens[end] if end < len(tokens) else None
    if before is not None and before.whitespace == "" and before.text in ("-", "/", "–"):
        return None
    if after is not None and tokens[end - 1].whitespace == "" and after.text in ("-", "/", "–"):
        return None
    return start, end


def _checklist_replacement(label: str, tokens: Sequence, seed: int) -> str | None:
    """Ask CheckList for one replacement of the entity made of ``tokens`` (a spaCy doc of its own)."""
    from spacy.tokens import Doc, Span
    from spacy.vocab import Vocab

    from perturbations.thirdparty import numpy_seeded

    perturb = thirdparty.checklist_perturb()
    words = [t.text for t in tokens]
    spaces = [bool(t.whitespace) for t in tokens[:-1]] + [False]
    doc = Doc(Vocab(), words=words, spaces=spaces)
    doc.ents = [Span(doc, 0, len(words), label=label)]
    out = numpy_seeded(seed, getattr(perturb, CHECKLIST_FUNCTIONS[label]), doc, n=1)
    return out[0] if out else None
