"""Active -> passive voice from the dependency parse ("Elon Musk founded Tesla" -> "Tesla was founded by Elon Musk").

No maintained library turns active English clauses into passive ones from a parse (pattern
and CheckList have no such operation), so the rewrite is written here, on top of the shared
parser and ``lemminflect`` for participles. It is deliberately conservative: every sentence
shape it cannot rewrite with certainty (no direct object, already passive, copular,
questions, coordinated verbs, progressive with a modal or perfect, ...; see
:mod:`perturbations.passive.clause`) is skipped with a reason. A skipped sentence costs coverage; a
broken one would make the robustness table measure this module's bugs instead of the metrics.

The "by"-agent and the prepositional and adverbial adjuncts that followed the object are ordered by
end weight (Quirk et al. 1985, §18.9: the longer phrase goes last): "was put in the box by John", but
"had been won by Werth at the first tournament in Achleiten three weeks ago"; never after an adjunct
containing a clause, so that it never attaches to a verb inside it. Names and titles are never split
(:func:`perturbations.language.names.name_spans`), and a text whose later pronouns could change their
antecedent is skipped.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.parsers import require_spacy_labels
from perturbations.passive.clause import (
    Clause,
    Skip,
    agreement,
    find_clause,
    members,
    verb_lemma,
)
from rome.core.parsing import ParsedText

#: nominative -> objective case, for the old subject that becomes the "by"-agent
OBJECTIVE = {"i": "me", "he": "him", "she": "her", "we": "us", "they": "them", "who": "whom"}
#: objective -> nominative case, for the old object that becomes the subject
NOMINATIVE = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
#: generic "you" ("You may reach X at ...") has no referent to lose: with ``pronoun_agent="drop"`` the
#: passive has no agent ("X may be reached at ..."). Every other personal pronoun refers to someone
#: the reader must keep, and a pronoun after "by" reads awkwardly ("demanded in this case by him",
#: "would be suggested by me"; Biber et al. 1999, §6.6: pronoun agents are rare, the passive demotes
#: given agents by dropping them), so with "drop" those clauses are skipped
GENERIC_PRONOUNS = frozenset({"you"})
REFERRING_PRONOUNS = frozenset({"i", "we", "he", "she", "it", "they", "me", "us", "him", "her", "them",
                          "this", "that", "these", "those", "one"})
PRONOUN_AGENT_CHOICES = ("drop", "skip", "keep")
BE = {("present", "1s"): "am", ("present", "3s"): "is", ("present", "pl"): "are",
      ("past", "1s"): "was", ("past", "3s"): "was", ("past", "pl"): "were"}
#: adjunct dependencies the agent may follow; focus adverbs ("too", "also") must stay last
ADJUNCT_DEPS = ("prep", "advmod", "npadvmod")
STAY_LAST = frozenset({"too", "also", "either", "as"})
#: entity types that are names (keep their capital); numbers and dates are ordinary words
NAME_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT",
                        "LAW", "LANGUAGE"})


class PassiveVoice(Perturbation):
    """Rewrite each active transitive main clause in the passive voice (meaning kept: ``invariant``)."""

    kind = "passive"
    parses = True

    def __init__(self, parser: str | None = None, pronoun_agent: str = "drop") -> None:
        """``parser``: a spaCy model name (default: the embedded one); its ClearNLP labels drive the rules.
        ``pronoun_agent``: what becomes of an old subject you/they/it: ``"drop"`` (agentless passive,
        "You may reach X at ..." -> "X may be reached at ..."; I/we clauses are skipped), ``"skip"``
        every pronoun clause, or ``"keep"`` ("... by you", "... by me")."""
        if pronoun_agent not in PRONOUN_AGENT_CHOICES:
            raise ValueError(f"pronoun_agent must be one of {', '.join(PRONOUN_AGENT_CHOICES)}")
        self.parser = require_spacy_labels(parser, self.kind)
        self.pronoun_agent = pronoun_agent

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy", "pronoun_agent": self.pronoun_agent}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        edits, reasons = [], []
        for head in clause_heads(parsed):
            try:
                edit = rewrite_clause(parsed, find_clause(parsed, head), self.pronoun_agent)
            except Skip as skip:
                reasons.append(str(skip))
                continue
            if not any(edit.start < e.end and e.start < edit.end for e in edits):
                edits.append(edit)
        if not edits:
            return Result.skip(text, reasons[0] if reasons else "no clause found")
        meta = {"parser": parsed.parser, "clauses_rewritten": len(edits), "clauses_skipped": len(reasons)}
        variant = Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta)
        return Result(text, (variant,))


def clause_heads(parsed: ParsedText) -> list:
    """Main clauses (parse roots), then finite clauses with their own subject: reported ones ("Officials
    said (that) the police arrested ...": ``ccomp``), adverbial ones after a subordinator ("because the
    police arrested ...": ``advcl``) and coordinated ones ("... and the court charged ...": ``conj``).
    Each is a clause of its own, which :func:`find_clause` checks like a main one."""
    from perturbations.passive.clause import SUBORDINATORS

    heads = list(parsed.roots)
    for tok in parsed.tokens:
        if tok.dep in ("ccomp", "conj", "advcl") and tok.pos == "VERB" and parsed.tokens[tok.head] in heads:
            kids = parsed.children(tok.i)
            marks = [c for c in kids if c.dep == "mark"]
            if tok.dep == "conj" and marks or tok.dep == "advcl" and not marks:
                continue
            if tok.dep == "ccomp" and not any(c.dep in ("nsubj", "nsubjpass") for c in parsed.children(tok.head)):
                continue  # a "reported" clause under a verb without a subject is a misparsed list of predicates
                # sharing one subject ("The inn does not allow dogs , has internet access ."): moving its
                # object to the front would leave the other predicates without their subject
            if any(c.dep == "nsubj" for c in kids) and all(m.text.lower() in SUBORDINATORS for m in marks):
                heads.append(tok)
    return heads


def participle(clause: Clause) -> str:
    from lemminflect import getInflection

    forms = getInflection(verb_lemma(clause.verb), "VBN")
    if not forms:
        raise Skip(f"no participle for '{clause.verb.text}'")
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
    tense = "past" if tags and tags[0] == "VBD" else "present"
    if not auxes:
        if verb_tag in ("VBD", "VBZ", "VBP"):
            return [BE["past" if verb_tag == "VBD" else "present", person]]
        raise Skip("no finite verb form")
    if lemmas == ["do"] and verb_tag == "VB":
        return [BE[tense, person]]
    if lemmas == ["have"] and verb_tag == "VBN":
        return ["had" if tense == "past" else ("has" if person == "3s" else "have"), "been"]
    if lemmas == ["be"] and verb_tag == "VBG":
        return [BE[tense, person], "being"]
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


def span_text(parsed: ParsedText, first: int, last: int) -> str:
    start, end = parsed.tokens[first], parsed.tokens[last]
    return parsed.text[start.idx : end.idx + len(end.text)]


def as_subject(parsed: ParsedText, span: tuple[int, int], sentence_initial: bool) -> str:
    text = span_text(parsed, *span)
    if span[0] == span[1] and text.lower() in NOMINATIVE:
        text = NOMINATIVE[text.lower()]
    if any(t.text == "," for t in parsed.tokens[span[0] : span[1] + 1]):
        text += comma_like(parsed, span)  # "X, a cheap restaurant, was recommended"
    return text[:1].upper() + text[1:] if sentence_initial else text


def comma_like(parsed: ParsedText, span: tuple[int, int]) -> str:
    """A closing comma spaced like the phrase's own commas (the data writes " , ")."""
    inner = next(t for t in parsed.tokens[span[0] : span[1] + 1] if t.text == ",")
    spaced = inner.i > 0 and parsed.tokens[inner.i - 1].whitespace != ""
    return " ," if spaced else ","


def as_agent(parsed: ParsedText, span: tuple[int, int], sentence_initial: bool) -> str:
    """The old subject after "by": objective case; lower-cased only if its capital was the sentence's."""
    from lemminflect import getAllLemmas

    text = span_text(parsed, *span)
    if span[0] == span[1] and text.lower() in OBJECTIVE:
        return OBJECTIVE[text.lower()]
    first = parsed.tokens[span[0]]
    function_word = first.pos in ("DET", "PRON") or first.tag in ("DT", "PDT", "PRP$", "CD")
    common_word = first.tag not in ("NNP", "NNPS") and first.pos != "PROPN" and first.ent_type not in NAME_TYPES
    known = bool(getAllLemmas(first.text.lower()))  # "Frances" is a name, "Thousands" a word
    acronym = first.text.isupper() and (len(first.text) > 1 or first.text != "A")  # "NASA", placeholder "X"
    if sentence_initial and first.text != "I" and not acronym and (
            function_word or (common_word and known)):
        text = text[:1].lower() + text[1:]
    return text


def adjunct_end(parsed: ParsedText, clause: Clause, after: int) -> int:
    """Last token of the clause-free adjuncts right after token ``after`` (the agent goes behind them)."""
    end = after
    for child in sorted(parsed.children(clause.verb.i), key=lambda t: t.i):
        if child.i <= after:
            continue
        inside = members(parsed, child.i)
        if (child.dep not in ADJUNCT_DEPS or min(inside) != end + 1 or child.text.lower() in STAY_LAST
                or any(parsed.tokens[i].pos in ("VERB", "AUX") for i in inside)
                or len(inside) != max(inside) - min(inside) + 1):
            break
        end = max(inside)
    return end


def check_names_whole(clause: Clause, spans: list[tuple[int, int]]) -> None:
    """A name or title must not be cut by the moved phrases (:func:`perturbations.language.names.name_spans`:
    entities, capitalised runs such as "English Without Tears", the data's multi-word names): spaCy often
    parses the first word of a title as the object and the rest as an adjunct ("English was edited by
    Alan Jaggs Without Tears"). A name right after a moved phrase is its apposition ("the album Let Me
    In"), which the move would strand."""
    from perturbations.language.names import cuts_a_name

    for first, last in (clause.subject, clause.object):
        if cuts_a_name(spans, first, last):
            raise Skip("a name or title would be split by the rewrite")
        if any(start == last + 1 for start, _ in spans):
            raise Skip("a name follows the moved phrase (apposition)")


def check_later_pronouns(parsed: ParsedText, clause: Clause, end: int) -> None:
    """A third-person pronoun after the rewritten clause ("Hypermarcas produces X ... they have ...") most
    likely refers to the old subject, the clause's topic (centering theory: Grosz, Joshi & Weinstein 1995,
    the subject is the preferred antecedent); the passive makes the old object the subject, so the
    pronoun's reading changes. Such texts are skipped."""
    from perturbations.passive.clause import THIRD_PERSON

    if any(t.text.lower() in THIRD_PERSON and t.tag in ("PRP", "PRP$") for t in parsed.tokens[end + 1 :]):
        raise Skip("a later pronoun could change its antecedent")


def check_information_order(parsed: ParsedText, clause: Clause) -> None:
    """The passive puts given information first (Biber et al. 1999, §6.6.2; Quirk et al. 1985, §18.8):
    an object introduced with "a"/"an" is new information, and as the subject before a definite agent it
    reads backwards ("A digital distribution service is offered by Lionsgate"), so such clauses are skipped."""
    obj = parsed.tokens[clause.object_head]
    if any(c.dep == "det" and c.text.lower() in ("a", "an") for c in parsed.children(obj.i)):
        raise Skip("indefinite object: new information would open the clause")


#: WordNet noun classes of participants that can act or cause: people, animals, groups of people
#: (organisations) and natural forces ("The leaves were blown by the wind": Quirk et al. 1985 §10.23, the
#: external causer)
AGENT_CLASSES = frozenset({"noun.person", "noun.animal", "noun.group", "noun.phenomenon"})
AGENT_ENTITIES = frozenset({"PERSON", "ORG", "NORP", "GPE"})


def check_agent(parsed: ParsedText, clause: Clause, spans: list[tuple[int, int]]) -> None:
    """A "by"-phrase names who acts: English by-agents are overwhelmingly animate or institutions (Biber et
    al. 1999, §6.4), and an inanimate one reads as a cause or an instrument ("a good view will be allowed by
    standard equipment", "could not have been incorporated by the ancient Roman diet"). The old subject's
    head must be a pronoun (see ``pronoun_agent``), a name (a proper noun, a person / organisation / nation /
    place entity, a name of :func:`~perturbations.language.names.name_spans`) or a common noun whose most used
    WordNet sense is a person, an animal, a group of people or a natural force."""
    from perturbations.language.names import is_letter_name
    from perturbations.language.senses import main_noun_sense, wordnet

    head = next((t for t in parsed.tokens[clause.subject[0] : clause.subject[1] + 1] if t.head < clause.subject[0]
                 or t.head > clause.subject[1] or t.head == t.i), parsed.tokens[clause.subject[1]])
    if head.pos in ("PROPN", "PRON") or head.ent_type in AGENT_ENTITIES or is_letter_name(head.text):
        return  # a pronoun's agent is decided by ``pronoun_agent``; "X" is a name
    if any(start <= head.i < end for start, end in spans):
        return  # a multi-word name ("the Kensington Park Hotel allows dogs")
    if head.text[:1].isupper() and all(x.instance_hypernyms() for x in wordnet().synsets(head.text.lower(), "n")):
        return  # a capitalised word WordNet knows only as a name, or not at all, is a name the tagger missed ("Frances")
    sense = main_noun_sense(head.lemma.lower()) if head.pos == "NOUN" else None
    if sense is None or sense.lexname() not in AGENT_CLASSES:
        raise Skip(f"'{head.text}' is no agent (not a person, group or name)")


#: adjuncts this long, and more than twice the agent's length, go after the agent (end weight); shorter ones
#: keep their place next to the verb, where a complement of place belongs ("was put in the closet by Lou")
HEAVY_ADJUNCT_TOKENS = 4


def heavier(adjunct_tokens: int, agent_tokens: int) -> bool:
    """Whether the adjuncts are clearly the heavier phrase (Quirk et al. 1985 §18.9, end weight)."""
    return adjunct_tokens >= HEAVY_ADJUNCT_TOKENS and adjunct_tokens > 2 * agent_tokens


#: a dropped generic "you" needs a modal: "You can reach X at ..." is a general statement whose passive
#: ("X can be reached at ...") loses no one; a plain "you are crossing the sea" addresses the reader
GENERIC_MODALS = frozenset({"can", "could", "may", "might", "will", "would", "should", "must", "ca"})


#: punctuation that may stay inside a moved phrase: a hyphen or slash joining two words without spaces,
#: an abbreviation's period, an apostrophe of a possessive
_WORD_JOINERS = frozenset({"-", "/", "–", "'", "’"})


def check_punctuation(parsed: ParsedText, first: int, last: int) -> None:
    """Commas, dashes, brackets and quotes inside the rewritten span belong to phrases that move apart;
    the rewrite cannot say where they go ("a comma or dash lost"), so such clauses are skipped."""
    for tok in parsed.tokens[first : last + 1]:
        if tok.pos != "PUNCT" and not (tok.text and not any(ch.isalnum() for ch in tok.text)):
            continue
        glued = tok.i > 0 and parsed.tokens[tok.i - 1].whitespace == "" and tok.whitespace == ""
        if tok.text in _WORD_JOINERS and glued:
            continue
        raise Skip(f"punctuation '{tok.text}' inside the rewritten span")


def check_pronouns_before_agent(parsed: ParsedText, first: int, last: int) -> None:
    """A pronoun in the object or the adjuncts that move before the agent would precede the noun it may
    refer to ("Carrots were put from his garden ... by John"): binding is grammar, so such clauses are skipped."""
    from perturbations.passive.clause import THIRD_PERSON

    if any(t.tag in ("PRP", "PRP$") and t.text.lower() in THIRD_PERSON for t in parsed.tokens[first : last + 1]):
        raise Skip("pronoun before the agent (it would precede its antecedent)")


def rewrite_clause(parsed: ParsedText, clause: Clause, pronoun_agent: str = "drop") -> Edit:
    """One edit replacing "subject ... verb object adjuncts" by "object aux participle adjuncts by subject"
    (no "by"-phrase for a dropped pronoun agent, see :class:`PassiveVoice`)."""
    subject = span_text(parsed, *clause.subject).lower()
    pronoun = clause.subject[0] == clause.subject[1] and subject in GENERIC_PRONOUNS | REFERRING_PRONOUNS
    referring = pronoun and subject in REFERRING_PRONOUNS
    if pronoun and (pronoun_agent == "skip" or (pronoun_agent == "drop" and referring)):
        raise Skip(f"pronoun subject '{subject}' (its agent would read 'by {OBJECTIVE.get(subject, subject)}')")
    if pronoun and not referring and pronoun_agent == "drop" and not any(
            a.text.lower() in GENERIC_MODALS for a in clause.auxiliaries):
        raise Skip("'you' without a modal addresses the reader (dropping it loses who acts)")
    from perturbations.language.names import name_spans

    spans = name_spans(parsed)  # once per clause: the name check and the agent check both read them
    check_names_whole(clause, spans)
    generic = pronoun and not referring
    person = agreement(parsed, parsed.tokens[clause.object_head])
    verb_group = with_pre_verb(auxiliary_chain(clause, person), clause) + " " + participle(clause)
    last = clause.object[1]
    if clause.particle is not None:
        verb_group += " " + clause.particle.text
        if clause.particle.i == last + 1:
            last += 1
    end = adjunct_end(parsed, clause, last)
    check_punctuation(parsed, clause.subject[0], end)
    check_later_pronouns(parsed, clause, end)
    from perturbations.language.names import sentence_starts

    initial = clause.subject[0] in sentence_starts(parsed)
    if initial and any(ch.isdigit() for ch in parsed.tokens[clause.object[0]].text):
        raise Skip("the new subject would open the sentence with a numeral")  # Chicago Manual of Style 9.5
    check_information_order(parsed, clause)
    if not generic:
        check_agent(parsed, clause, spans)
    agent = "" if generic and pronoun_agent == "drop" else f"by {as_agent(parsed, clause.subject, initial)}"
    adjuncts = span_text(parsed, last + 1, end) if end > last else ""
    if agent and adjuncts and heavier(end - last, clause.subject[1] - clause.subject[0] + 1):
        verb_group += f" {agent} {adjuncts}"  # end weight: the much heavier phrase goes last
    else:
        if adjuncts:
            check_pronouns_before_agent(parsed, clause.object[0], end)
            verb_group += " " + adjuncts
        if agent:
            verb_group += " " + agent
    new = f"{as_subject(parsed, clause.object, initial)} {verb_group}"
    last_token = parsed.tokens[end]
    if end == clause.sentence[1] and len(last_token.text) > 1 and last_token.text.endswith("."):
        new += "."  # the abbreviation's period also ended the sentence ("at 4 P.M.")
    start = parsed.tokens[clause.subject[0]].idx
    stop = last_token.idx + len(last_token.text)
    return Edit(start, stop, parsed.text[start:stop], new)
