"""Active -> passive voice from the dependency parse ("Elon Musk founded Tesla" -> "Tesla was founded by Elon Musk").

No maintained library turns active English clauses into passive ones from a parse (pattern
and CheckList have no such operation), so the rewrite is written here, on top of the shared
parser and ``lemminflect`` for participles. It is deliberately conservative: every sentence
shape it cannot rewrite with certainty (no direct object, already passive, copular,
questions, coordinated verbs, progressive with a modal or perfect, ...) is skipped with a
reason. A skipped sentence costs coverage; a broken one would make the robustness table
measure this module's bugs instead of the metrics.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from rome.core.parsing import ParsedText, Token

#: nominative -> objective case, for the old subject that becomes the "by"-agent
OBJECTIVE = {"i": "me", "he": "him", "she": "her", "we": "us", "they": "them", "who": "whom"}
#: objective -> nominative case, for the old object that becomes the subject
NOMINATIVE = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
#: person and number of pronoun subjects: "1s", "3s", "pl" ("you" takes plural verb forms)
PRONOUN_AGREEMENT = {
    "i": "1s", "me": "1s", "he": "3s", "him": "3s", "she": "3s", "her": "3s", "it": "3s",
    "we": "pl", "us": "pl", "they": "pl", "them": "pl", "you": "pl",
    "this": "3s", "that": "3s", "these": "pl", "those": "pl", "one": "3s",
    "everything": "3s", "something": "3s", "nothing": "3s", "anything": "3s",
    "everyone": "3s", "someone": "3s", "everybody": "3s", "somebody": "3s",
}
#: verbs whose "object" does not passivize ("The hotel has wifi" -/-> "Wifi is had by the hotel");
#: "care" because the data's "if you do not care the area" has no passive either
NON_PASSIVE_VERBS = frozenset({
    "have", "lack", "resemble", "cost", "weigh", "get", "become", "equal", "fit", "suit",
    "mean", "contain", "last", "measure", "total", "number", "seem", "let", "want", "need", "care",
})
#: light-verb idioms whose bare noun is not a real patient ("take place", "make sense")
LIGHT_VERBS = frozenset({"take", "make", "have", "give", "do", "pay", "lose", "keep", "catch"})
REFLEXIVE = frozenset({"myself", "yourself", "himself", "herself", "itself", "ourselves", "yourselves",
                       "themselves", "oneself"})
WH_WORDS = frozenset({"who", "whom", "what", "which", "whose", "where", "when", "why", "how"})
BLOCKING_DEPS = {
    "nsubjpass": "already passive", "auxpass": "already passive", "csubjpass": "already passive",
    "expl": "existential 'there' clause", "dative": "double object (dative)",
    "oprd": "object predicate", "ccomp": "clausal complement", "xcomp": "open clausal complement",
    "attr": "copular clause", "acomp": "copular clause", "csubj": "clausal subject",
    "dep": "unclear attachment", "appos": "unclear attachment", "meta": "unclear attachment",
}
BE = {("present", "1s"): "am", ("present", "3s"): "is", ("present", "pl"): "are",
      ("past", "1s"): "was", ("past", "3s"): "was", ("past", "pl"): "were"}


class Skip(Exception):
    """A sentence this module will not rewrite; the message is the reason reported to the user."""


@dataclass(frozen=True)
class Clause:
    """The parts of one active clause that the passive rewrite moves."""

    subject: tuple[int, int]  # token span [first, last]
    object: tuple[int, int]
    object_head: int
    verb: Token
    auxiliaries: tuple[Token, ...]
    pre_verb: tuple[Token, ...]  # negation and adverbs between subject and verb
    particle: Token | None
    sentence_start: int


class PassiveVoice(Perturbation):
    """Rewrite each active transitive main clause in the passive voice (meaning kept: ``invariant``)."""

    kind = "passive"

    def __init__(self, parser: str | None = None) -> None:
        self.parser = parser

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy"}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        edits, reasons = [], []
        for root in parsed.roots:
            try:
                edits.append(rewrite_clause(parsed, find_clause(parsed, root)))
            except Skip as skip:
                reasons.append(str(skip))
        if not edits:
            return Result.skip(text, reasons[0] if reasons else "no clause found")
        meta = {"parser": parsed.parser, "clauses_rewritten": len(edits), "clauses_skipped": len(reasons)}
        variant = Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta)
        return Result(text, (variant,))


# --- finding the clause ---------------------------------------------------------------------------------


def subtree_span(parsed: ParsedText, i: int) -> tuple[int, int]:
    """First and last token index of ``i``'s subtree; Skip if the subtree is not contiguous."""
    members = {i}
    changed = True
    while changed:
        changed = False
        for tok in parsed.tokens:
            if tok.i not in members and tok.head in members and tok.head != tok.i:
                members.add(tok.i)
                changed = True
    first, last = min(members), max(members)
    if len(members) != last - first + 1:
        raise Skip("discontinuous phrase")
    return first, last


def find_clause(parsed: ParsedText, root: Token) -> Clause:
    """Check that ``root`` heads a clause we can rewrite, and collect its parts."""
    sentence = subtree_span_loose(parsed, root.i)
    last_text = parsed.tokens[sentence[1]].text
    if "?" in last_text:
        raise Skip("question")
    if root.lemma.lower() == "be" or root.pos == "AUX":
        raise Skip("copular clause")
    if root.pos != "VERB" or not root.tag.startswith("VB"):
        raise Skip("no finite main verb")
    children = parsed.children(root.i)
    for child in children:
        if child.dep in BLOCKING_DEPS:
            raise Skip(BLOCKING_DEPS[child.dep])
        if child.dep == "conj" and child.pos in ("VERB", "AUX"):
            raise Skip("coordinated verbs share the subject")
    subjects = [c for c in children if c.dep == "nsubj"]
    objects = [c for c in children if c.dep == "dobj"]
    if not subjects:
        raise Skip("no subject (imperative or fragment)")
    if not objects:
        raise Skip("no direct object")
    if len(subjects) > 1 or len(objects) > 1:
        raise Skip("several subjects or objects")
    subject, obj = subjects[0], objects[0]
    check_arguments(parsed, root, subject, obj)
    check_verb_form(root)
    subj_span, obj_span = subtree_span(parsed, subject.i), subtree_span(parsed, obj.i)
    check_spans(parsed, subj_span, obj_span, children)
    auxiliaries = tuple(c for c in children if c.dep == "aux")
    particle = next((c for c in children if c.dep == "prt"), None)
    pre_verb = check_order(parsed, root, subj_span, obj_span, auxiliaries, particle)
    check_agreement(parsed, subject, auxiliaries[0] if auxiliaries else root)
    return Clause(subj_span, obj_span, obj.i, root, auxiliaries, pre_verb, particle, sentence[0])


def subtree_span_loose(parsed: ParsedText, i: int) -> tuple[int, int]:
    """Sentence extent of a root: its subtree's first and last token, contiguous or not."""
    members = [t.i for t in parsed.tokens if _reaches(parsed, t.i, i)]
    return min(members), max(members)


def _reaches(parsed: ParsedText, i: int, root: int) -> bool:
    for _ in range(len(parsed.tokens) + 1):
        if i == root:
            return True
        head = parsed.tokens[i].head
        if head == i:
            return False
        i = head
    return False


def check_arguments(parsed: ParsedText, verb: Token, subject: Token, obj: Token) -> None:
    lemma = verb.lemma.lower()
    if lemma in NON_PASSIVE_VERBS:
        raise Skip(f"verb '{verb.text}' does not passivize")
    if subject.text.lower() in WH_WORDS or obj.text.lower() in WH_WORDS or subject.tag.startswith("W"):
        raise Skip("question or relative clause")
    if obj.text.lower() in REFLEXIVE or obj.text.lower() in ("other", "another"):
        raise Skip("reflexive or reciprocal object")
    obj_children = parsed.children(obj.i)
    if lemma in LIGHT_VERBS and obj.tag == "NN" and not any(c.dep in ("det", "poss", "amod", "nummod")
                                                            for c in obj_children):
        raise Skip(f"light-verb idiom '{verb.text} {obj.text}'")
    if any(t.tag in ("WDT", "WP", "WP$") for t in parsed.tokens[: verb.i]):
        raise Skip("question or relative clause")


def check_verb_form(verb: Token) -> None:
    """The verb must be a form lemminflect's lexicon knows (misparses like "gluten free" are verbs to spaCy)."""
    from lemminflect import getAllInflections

    forms = {f for group in getAllInflections(verb.lemma.lower(), upos="VERB").values() for f in group}
    if verb.text.lower() not in forms:
        raise Skip(f"'{verb.text}' is not a known form of the verb '{verb.lemma}'")


def check_spans(parsed: ParsedText, subj: tuple[int, int], obj: tuple[int, int], verb_children: list[Token]) -> None:
    """Refuse what the moved phrases would break: split suffixes, negative polarity, inner commas."""
    after_obj = parsed.tokens[obj[1] + 1] if obj[1] + 1 < len(parsed.tokens) else None
    for tok in (*parsed.tokens[subj[0] : subj[1] + 2], *parsed.tokens[obj[0] : obj[1] + 2]):
        if len(tok.text) > 1 and tok.text[0] == "-" and tok.text[1:].isalpha():
            raise Skip(f"split suffix '{tok.text}' (number unknown)")  # the data's "hotel -s"
    negated = any(c.dep == "neg" for c in verb_children)
    if negated and parsed.tokens[obj[0]].text.lower().startswith("any"):
        raise Skip("negative-polarity 'any' object cannot become the subject")
    if parsed.tokens[obj[1]].pos == "PUNCT" or parsed.tokens[subj[1]].pos == "PUNCT":
        raise Skip("phrase ends in punctuation (misparse)")
    subject_commas = any(t.text == "," for t in parsed.tokens[subj[0] : subj[1] + 1])
    if subject_commas and after_obj is not None and after_obj.pos != "PUNCT":
        raise Skip("subject with an inner comma would need another comma as agent")


def check_agreement(parsed: ParsedText, subject: Token, finite: Token) -> None:
    """A present-tense active verb that disagrees with its subject ("pizza try") means a misparse or bad input."""
    if finite.tag not in ("VBZ", "VBP"):
        return
    try:
        person = agreement(parsed, subject)
    except Skip:
        return
    if (finite.tag == "VBZ") != (person == "3s"):
        raise Skip(f"subject '{subject.text}' and verb '{finite.text}' disagree")


def check_order(parsed: ParsedText, verb: Token, subj: tuple[int, int], obj: tuple[int, int],
                auxiliaries: tuple[Token, ...], particle: Token | None) -> tuple[Token, ...]:
    """Subject, auxiliaries/adverbs, verb, (particle), object, in this order and nothing else in between."""
    if not subj[1] < verb.i < obj[0]:
        raise Skip("unusual word order")
    pre_verb = []
    for tok in parsed.tokens[subj[1] + 1 : verb.i]:
        if tok in auxiliaries:
            continue
        if tok.head == verb.i and tok.dep in ("neg", "advmod") and tok.pos in ("PART", "ADV"):
            pre_verb.append(tok)
            continue
        raise Skip("material between subject and verb")
    if any(a.i > verb.i for a in auxiliaries):
        raise Skip("unusual word order")
    if any(a.i < subj[0] for a in auxiliaries):
        raise Skip("question (auxiliary before the subject)")
    after = [c for c in parsed.children(verb.i) if c.i > obj[1]]
    if any(c.dep in ("conj", "cc") for c in after):
        raise Skip("coordination after the object")
    if any(c.dep in ("prep", "agent") and c.text.lower() == "by" for c in after):
        raise Skip("a 'by' phrase already follows the object")
    between = parsed.tokens[verb.i + 1 : obj[0]]
    if any(t is not particle for t in between):
        raise Skip("material between verb and object")
    if particle is not None and particle.i > obj[1] + 1:
        raise Skip("particle far from its verb")
    return tuple(pre_verb)


# --- rewriting ------------------------------------------------------------------------------------------


def agreement(parsed: ParsedText, head: Token) -> str:
    """Person and number of the new subject: "1s", "3s" or "pl"."""
    children = parsed.children(head.i)
    conj = [c for c in children if c.dep == "conj"]
    if conj:
        if any(c.dep == "cc" and c.text.lower() in ("or", "nor") for c in children):
            raise Skip("number of an 'or' subject is unclear")
        return "pl"
    word = head.text.lower()
    if word in PRONOUN_AGREEMENT:
        return PRONOUN_AGREEMENT[word]
    if head.tag == "NNPS":  # "The Beatles are", but "Tesla Motors is", "The United States is"
        raise Skip(f"number of the plural-looking name '{head.text}' is unclear")
    if head.tag == "NNS":
        return "pl"
    if head.tag in ("NN", "NNP"):
        return "3s"
    raise Skip(f"number of the object '{head.text}' is unclear")


def participle(verb: Token) -> str:
    from lemminflect import getInflection, getLemma

    lemmas = getLemma(verb.text.lower(), upos="VERB") or (verb.lemma.lower(),)
    forms = getInflection(lemmas[0], "VBN")
    if not forms:
        raise Skip(f"no participle for '{verb.text}'")
    return forms[0]


def auxiliary_chain(clause: Clause, person: str) -> list[str]:
    """The passive auxiliaries for the active verb group (tense, aspect, modality; agreeing with ``person``)."""
    auxes = [a.text for a in clause.auxiliaries]
    lemmas = [a.lemma.lower() for a in clause.auxiliaries]
    tags = [a.tag for a in clause.auxiliaries]
    verb_tag = clause.verb.tag
    if any(a.startswith("'") or a.lower() == "to" for a in auxes):
        raise Skip("contracted or infinitival auxiliary")
    if tags and tags[0] == "MD":
        if lemmas[1:] == [] and verb_tag == "VB":
            return [auxes[0], "be"]
        if lemmas[1:] == ["have"] and verb_tag == "VBN":
            return [auxes[0], "have", "been"]
        raise Skip("progressive with a modal has no natural passive")
    tense = lambda tag: "past" if tag == "VBD" else "present"  # noqa: E731
    if not auxes:
        if verb_tag == "VBD":
            return [BE["past", person]]
        if verb_tag in ("VBZ", "VBP"):
            return [BE["present", person]]
        raise Skip("no finite verb form")
    if lemmas == ["do"] and verb_tag == "VB":
        return [BE[tense(tags[0]), person]]
    if lemmas == ["have"] and verb_tag == "VBN":
        has = "had" if tense(tags[0]) == "past" else ("has" if person == "3s" else "have")
        return [has, "been"]
    if lemmas == ["be"] and verb_tag == "VBG":
        return [BE[tense(tags[0]), person], "being"]
    raise Skip("perfect progressive or unusual auxiliaries")


def with_pre_verb(chain: list[str], clause: Clause) -> str:
    """Insert negation and adverbs after the first auxiliary ("did not eat" -> "was not eaten")."""
    words = [chain[0]]
    for tok in clause.pre_verb:
        if tok.text.lower() == "n't":
            if words[-1] == "am":
                words.append("not")
            else:
                words[-1] += tok.text
        elif (tok.text.lower() == "not" and clause.auxiliaries and clause.auxiliaries[0].whitespace == ""
              and words[-1] == clause.auxiliaries[0].text):
            words[-1] += tok.text  # "cannot" stays one word
        else:
            words.append(tok.text)
    return " ".join(words + chain[1:])


def span_text(parsed: ParsedText, span: tuple[int, int]) -> str:
    first, last = parsed.tokens[span[0]], parsed.tokens[span[1]]
    return parsed.text[first.idx : last.idx + len(last.text)]


def as_subject(parsed: ParsedText, span: tuple[int, int], sentence_initial: bool) -> str:
    text = span_text(parsed, span)
    if span[0] == span[1] and text.lower() in NOMINATIVE:
        text = NOMINATIVE[text.lower()]
    return text[:1].upper() + text[1:] if sentence_initial else text


def comma_like(parsed: ParsedText, span: tuple[int, int]) -> str:
    """A closing comma spaced like the phrase's own commas (the data writes " , ")."""
    inner = next(t for t in parsed.tokens[span[0] : span[1] + 1] if t.text == ",")
    spaced = inner.i > 0 and parsed.tokens[inner.i - 1].whitespace != ""
    return " ," if spaced else ","


def as_agent(parsed: ParsedText, span: tuple[int, int], sentence_initial: bool) -> str:
    text = span_text(parsed, span)
    if span[0] == span[1] and text.lower() in OBJECTIVE:
        return OBJECTIVE[text.lower()]
    first = parsed.tokens[span[0]]
    keeps_case = (first.tag in ("NNP", "NNPS") or first.pos == "PROPN" or first.text == "I"
                  or (first.text.isupper() and first.text != "A"))  # names, acronyms, placeholders ("X")
    if sentence_initial and not keeps_case:
        text = text[:1].lower() + text[1:]
    return text


def rewrite_clause(parsed: ParsedText, clause: Clause) -> Edit:
    """One edit replacing "subject ... verb object" by "object aux participle by subject"."""
    person = agreement(parsed, parsed.tokens[clause.object_head])
    verb_group = with_pre_verb(auxiliary_chain(clause, person), clause) + " " + participle(clause.verb)
    if clause.particle is not None:
        verb_group += " " + clause.particle.text
    initial = clause.subject[0] == clause.sentence_start
    subject = as_subject(parsed, clause.object, initial)
    if any(t.text == "," for t in parsed.tokens[clause.object[0] : clause.object[1] + 1]):
        subject += comma_like(parsed, clause.object)  # "X, a cheap restaurant, was recommended"
    new = (f"{subject} {verb_group} "
           f"by {as_agent(parsed, clause.subject, initial)}")
    last = clause.object[1]
    if clause.particle is not None and clause.particle.i == last + 1:
        last += 1
    start = parsed.tokens[clause.subject[0]].idx
    end_tok = parsed.tokens[last]
    end = end_tok.idx + len(end_tok.text)
    return Edit(start, end, parsed.text[start:end], new)
