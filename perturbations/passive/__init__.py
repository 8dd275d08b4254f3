"""Active -> passive voice ("Elon Musk founded Tesla Motors." -> "Tesla Motors was founded by Elon Musk.").

Three steps, the first as the grammar books separate it:

* **which clauses have a passive** (:mod:`perturbations.passive.clause`): a transitive verb with a
  direct object, with the shapes a reference grammar describes (tense, aspect and modals carried over,
  phrasal verbs, ditransitives, object predicatives, pronoun case, subordinate and coordinated clauses);
  every other shape is skipped with a reason that names its source;
* **whether its agent is expected** (:func:`expected_agents`): a "by" agent the judge's language model
  does not expect after the passive ("Dogs are not allowed by the hotel") reads forced, and the rewrite is
  refused;
* **which passive is kept** (:func:`judge_best`): the judge (:mod:`perturbations.judge`, kind
  ``"passive"``) reads each rewrite on its sentence; the one it accepts and likes best is kept, one clause
  per variant, with its ``p_valid`` (``variant.meta["p_valid"]``); a text whose rewrites it accepts none
  of is skipped. The judge's language model is the perturbations' own: no metric runs on it.

No grammar rule here was fitted to a corpus or to judged cards; the agent bound (:data:`AGENT_MIN_LOGPROB`)
was set on the passive cards' development halves and the gold set.

No maintained library turns active English clauses into passive ones from a parse (pattern and
CheckList have no such operation), so the rewrite is written here on the shared parser and
``lemminflect``'s participles.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.parsers import require_spacy_labels
from perturbations.passive.clause import (
    SUBORDINATORS,
    THIRD_PERSON,
    Clause,
    Skip,
    agreement,
    agrees,
    find_clause,
    members,
    number_of,
    verb_lemma,
)
from rome.core.parsing import ParsedText

#: verbs with an object and a bare infinitive ("helped them create", "made him tell", "saw her leave"): the
#: infinitive is no finite clause, and its passive needs "to" (Quirk et al. 1985, ch. 16)
BARE_INFINITIVE_VERBS = frozenset({"help", "make", "let", "have", "see", "hear", "watch", "feel", "notice", "bid"})
#: nominative -> objective case, for the old subject that becomes the "by"-agent (also inside a
#: coordination: "my wife and I" -> "by my wife and me"; Quirk et al. 1985, ch. 6, pronoun case)
OBJECTIVE = {"i": "me", "he": "him", "she": "her", "we": "us", "they": "them", "who": "whom"}
#: objective -> nominative case, for the old object that becomes the subject ("arrested him" -> "He was")
NOMINATIVE = {"me": "I", "him": "he", "her": "she", "us": "we", "them": "they"}
#: generic "you" ("You can reach the hotel by phone") has no referent to lose: with ``pronoun_agent="drop"``
#: the passive has no agent ("The hotel can be reached by phone"), the passive's usual way with an agent
#: that is unknown or general (Biber et al. 1999, ch. 6: most passives have no agent). A personal pronoun
#: refers to someone the reader must keep, and as an agent ("by me", "by them") it reads awkwardly, so
#: with "drop" those clauses are skipped
GENERIC_PRONOUNS = frozenset({"you"})
REFERRING_PRONOUNS = frozenset({"i", "we", "he", "she", "it", "they", "me", "us", "him", "her", "them",
                                "this", "that", "these", "those", "one"})
#: a dropped generic "you" needs a modal: "You can reach X" is a general statement whose passive ("X can
#: be reached") loses no one; a plain "you are painting the fence" addresses the reader
GENERIC_MODALS = frozenset({"can", "could", "may", "might", "will", "would", "should", "must", "ca", "shall"})
PRONOUN_AGENT_CHOICES = ("drop", "skip", "keep")
#: the lowest log-probability (nats) the judge's language model may give "by" where a rewrite puts its agent
#: (:func:`expected_agents`). Set by ``python scripts/research/passive_agent.py`` on the development halves of
#: the passive cards and the gold set's expected passives: the largest multiple of 0.5 that refuses no
#: development line both readers call valid and at most 5 % of the gold passives.
AGENT_MIN_LOGPROB = -5.0
BE = {("present", "1s"): "am", ("present", "3s"): "is", ("present", "pl"): "are",
      ("past", "1s"): "was", ("past", "3s"): "was", ("past", "pl"): "were"}
#: entity types that are names (keep their capital); numbers and dates are ordinary words
NAME_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "NORP", "FAC", "PRODUCT", "WORK_OF_ART", "EVENT",
                        "LAW", "LANGUAGE"})
#: punctuation that may stay inside a moved phrase: a hyphen or slash joining two words without spaces,
#: an abbreviation's period, an apostrophe of a possessive
WORD_JOINERS = frozenset({"-", "/", "–", "'", "’"})


class PassiveVoice(Perturbation):
    """Rewrite each active transitive clause in the passive voice (meaning kept: ``invariant``)."""

    kind = "passive"
    parses = True

    def __init__(self, parser: str | None = None, pronoun_agent: str = "drop", judged: bool = True) -> None:
        """``parser``: a spaCy model name (default: the embedded one); its ClearNLP labels drive the rules.
        ``pronoun_agent``: what becomes of a pronoun subject: ``"drop"`` (generic "you" with a modal gives
        an agentless passive, other pronoun subjects are skipped), ``"skip"`` every pronoun clause, or
        ``"keep"`` ("... by you", "... by me"). ``judged``: the judge keeps the one rewrite it accepts and
        likes best (the default); ``False``: the grammar alone, every clause it allows rewritten, no language
        model (how the examples and the gold set test the grammar)."""
        if pronoun_agent not in PRONOUN_AGENT_CHOICES:
            raise ValueError(f"pronoun_agent must be one of {', '.join(PRONOUN_AGENT_CHOICES)}")
        self.parser = require_spacy_labels(parser, self.kind)
        self.pronoun_agent = pronoun_agent
        self.judged = bool(judged)

    def describe(self) -> dict:
        out = {"kind": self.kind, "parser": self.parser or "spacy", "pronoun_agent": self.pronoun_agent,
               "judged": self.judged}
        if self.judged:
            from perturbations.judged import get_kind_judge

            out.update(judge=get_kind_judge(self.kind).describe(), clauses="the judge's best, one per variant",
                       agent_min_logprob=AGENT_MIN_LOGPROB)
        return out

    def candidates(self, text: str) -> tuple[ParsedText, list[tuple[Edit, dict]], list[str]]:
        """The grammar's rewrites of ``text``: (parse, [(edit, facts about the clause)], skip reasons)."""
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        found, reasons = [], []
        for head in clause_heads(parsed):
            try:
                edit, facts = rewrite_clause(parsed, find_clause(parsed, head), self.pronoun_agent)
            except Skip as skip:
                reasons.append(str(skip))
                continue
            if not any(edit.start < e.end and e.start < edit.end for e, _ in found):
                found.append((edit, facts))
        return parsed, found, reasons

    def _apply(self, text: str, rng: random.Random) -> Result:
        parsed, found, reasons = self.candidates(text)
        p_valid = None
        if found and self.judged:
            found, refused = expected_agents(text, found)
            reasons[:0] = refused
            if found:
                found, p_valid, refused = judge_best(text, found)
                if refused:
                    reasons.insert(0, refused)
        if not found:
            return Result.skip(text, reasons[0] if reasons else "no clause found")
        edits = [edit for edit, _ in found]
        meta = {"parser": parsed.parser, "clauses_rewritten": len(edits), "clauses_skipped": len(reasons),
                "clauses": [{k: v for k, v in facts.items() if k not in ("sentence", "agent_at")} for _, facts in found]}
        if p_valid is not None:
            meta["p_valid"] = round(p_valid, 4)
        variant = Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta)
        return Result(text, (variant,))


def expected_agents(text: str, found: list[tuple[Edit, dict]]) -> tuple[list[tuple[Edit, dict]], list[str]]:
    """The rewrites whose "by"-agent the judge's language model expects (:func:`agent_logprobs` >=
    :data:`AGENT_MIN_LOGPROB`, recorded as ``agent_logprob``), and the reasons of those refused; rewrites
    without an agent pass. Most passives have no agent (Biber et al. 1999, ch. 6); where the passive reads
    as complete without one ("Dogs are not allowed" as a rule, "Children are allowed"), an agent added after
    it reads forced, however likely the whole sentence is."""
    kept, refused = [], []
    for (edit, facts), reading in zip(found, agent_logprobs(text, found)):
        if reading is not None and reading < AGENT_MIN_LOGPROB:
            refused.append(f"the language model does not expect an agent here (log P(by) {reading:.2f} < "
                           f"{AGENT_MIN_LOGPROB})")
            continue
        kept.append((edit, facts if reading is None else {**facts, "agent_logprob": round(reading, 3)}))
    return kept, refused


def agent_logprobs(text: str, found: list[tuple[Edit, dict]]) -> list[float | None]:
    """Per rewrite, log P("by" | its sentence up to the agent) under the judge's language model (None: no
    agent); one short pass per rewrite with an agent, all in one batch."""
    from perturbations.judge.lm import language_model

    lm = language_model()
    asked, sequences = [], []
    for k, (edit, facts) in enumerate(found):
        if facts.get("agent_at") is None:
            continue
        prefix = (text[facts["sentence"][0] : edit.start] + edit.new[: facts["agent_at"]]).rstrip()
        base, ids = lm.encode(prefix), lm.encode(prefix + " by")
        if ids[: len(base)] == base and len(ids) > len(base):
            asked.append((k, len(ids) - len(base)))
            sequences.append(ids)
    readings: list[float | None] = [None] * len(found)
    for (k, extra), logprobs in zip(asked, lm.token_logprobs(sequences) if sequences else []):
        readings[k] = float(logprobs[-extra:].sum())
    return readings


def judge_best(text: str, found: list[tuple[Edit, dict]]) -> tuple[list[tuple[Edit, dict]], float | None, str]:
    """The one rewrite the judge (:mod:`perturbations.judge`, kind ``"passive"``) accepts and likes best, read
    on its sentence, with its ``p_valid``; none (and the reason) when it accepts none. One clause per variant:
    the judge reads one change at a time."""
    from perturbations.judged import get_kind_judge

    judge = get_kind_judge("passive")
    probabilities = judge.p_valid([sentence_pair(text, facts["sentence"], edit) for edit, facts in found])
    best = max(range(len(found)), key=lambda k: probabilities[k])
    if not judge.accepts(probabilities[best]):
        return [], None, (f"the judge does not accept the passive (p_valid {probabilities[best]:.2f} < "
                          f"{judge.threshold})")
    return [found[best]], float(probabilities[best]), ""


def sentence_pair(text: str, sentence: tuple[int, int], edit: Edit) -> tuple[str, str]:
    """(original sentence, the same sentence with ``edit`` applied): what the judge reads."""
    start, end = sentence
    return text[start:end], text[start : edit.start] + edit.new + text[edit.end : end]


def clause_heads(parsed: ParsedText) -> list:
    """Main clauses (parse roots), then finite clauses with their own subject (Quirk et al. 1985, ch. 14-15):
    reported ones ("Officials said (that) the police arrested ...": ``ccomp``), adverbial ones after a
    subordinator ("because the storm flooded ...": ``advcl``) and coordinated ones ("... and the court
    released ...": ``conj``). Each is checked like a main clause by :func:`find_clause`."""
    heads = list(parsed.roots)
    chosen = {head.i for head in heads}  # looked up per token: a long text has as many heads as sentences
    for tok in parsed.tokens:
        if tok.dep in ("ccomp", "conj", "advcl") and tok.pos == "VERB" and tok.head in chosen:
            kids = parsed.children(tok.i)
            marks = [c for c in kids if c.dep == "mark" or c.dep == "advmod" and c.tag == "WRB"
                     and c.i == min(members(parsed, tok.i)) and c.text.lower() in SUBORDINATORS]
            if tok.dep == "conj" and marks or tok.dep == "advcl" and not marks:
                continue
            if tok.dep == "ccomp" and not any(c.dep in ("nsubj", "nsubjpass") for c in parsed.children(tok.head)):
                continue  # a "reported" clause under a verb without a subject is a misparsed list of predicates
            if tok.dep == "ccomp" and parsed.tokens[tok.head].lemma.lower() in BARE_INFINITIVE_VERBS and not marks:
                continue  # "helped Brooks and Groening create The Simpsons": a bare infinitive, not a finite clause
            if any(c.dep == "nsubj" for c in kids) and all(m.text.lower() in SUBORDINATORS for m in marks):
                heads.append(tok)
                chosen.add(tok.i)
    return heads


def participle(clause: Clause) -> str:
    """The past participle: the active's own form where it is one (a regular past keeps its spelling:
    "cancelled"), else the most used of lemminflect's forms (wordfreq: "woken", not "waked")."""
    from lemminflect import getInflection

    from perturbations.judge.features import zipf

    lemma = verb_lemma(clause.verb)
    forms = getInflection(lemma, "VBN")
    if not forms:
        raise Skip(f"no participle for '{clause.verb.text}'")
    own = clause.verb.text.lower()
    if clause.verb.tag == "VBN" and own in forms or (
            clause.verb.tag == "VBD" and set(getInflection(lemma, "VBD")) == set(forms) and own in forms):
        return own
    return max(forms, key=lambda form: (zipf(form), -forms.index(form)))


def auxiliary_chain(clause: Clause, person: str) -> tuple[list[str], str]:
    """The passive auxiliaries for the active verb group and the name of its tense/aspect/modality
    (Quirk et al. 1985, ch. 3: the passive adds "be" + participle after the active's auxiliaries, and "be"
    takes over the tense and the agreement with the new subject)."""
    auxes = [a.text for a in clause.auxiliaries]
    lemmas = [a.lemma.lower() for a in clause.auxiliaries]
    tags = [a.tag for a in clause.auxiliaries]
    verb_tag = clause.verb.tag
    if any(a.startswith("'") or a.startswith("’") for a in auxes):
        raise Skip("contracted auxiliary ('ll, 've, 's: its full form would change the register)")
    if any(a.lower() == "to" for a in auxes):
        raise Skip("infinitive")
    if tags and tags[0] == "MD":
        if lemmas[1:] == [] and verb_tag == "VB":
            return [auxes[0], "be"], "modal"
        if lemmas[1:] == ["have"] and verb_tag == "VBN":
            return [auxes[0], "have", "been"], "modal perfect"
        raise Skip("progressive with a modal (its passive 'will be being built' is avoided: Quirk et al. 1985, ch. 3)")
    tense = "past" if tags and tags[0] == "VBD" else "present"
    if not auxes:
        if verb_tag in ("VBD", "VBZ", "VBP"):
            tense = "past" if verb_tag == "VBD" else "present"
            return [BE[tense, person]], f"simple {tense}"
        raise Skip("no finite verb form")
    if lemmas == ["do"] and verb_tag == "VB":
        return [BE[tense, person]], f"simple {tense} (do-support)"
    if lemmas == ["have"] and verb_tag == "VBN":
        return ["had" if tense == "past" else ("has" if person == "3s" else "have"), "been"], f"{tense} perfect"
    if lemmas == ["be"] and verb_tag == "VBG":
        return [BE[tense, person], "being"], f"{tense} progressive"
    raise Skip("perfect progressive or unusual auxiliaries (its passive 'has been being built' is avoided: "
               "Quirk et al. 1985, ch. 3)")


def with_pre_verb(chain: list[str], clause: Clause) -> str:
    """Insert negation and adverbs after the first auxiliary ("did not eat" -> "was not eaten")."""
    words = [chain[0]]
    for tok in clause.pre_verb:
        if tok.text.lower() in ("n't", "n’t"):
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


def span_text(parsed: ParsedText, first: int, last: int, cases: dict[str, str] | None = None) -> str:
    """The text of tokens ``first..last``; with ``cases``, personal pronouns that are the phrase's head or
    one of its conjuncts take the case the table gives ("my wife and I" -> "my wife and me")."""
    if not cases:
        start, end = parsed.tokens[first], parsed.tokens[last]
        return parsed.text[start.idx : end.idx + len(end.text)]
    out = []
    for tok in parsed.tokens[first : last + 1]:
        word = tok.text
        head_or_conjunct = tok.head < first or tok.head > last or tok.head == tok.i or tok.dep == "conj"
        if tok.tag == "PRP" and head_or_conjunct and word.lower() in cases:
            word = cases[word.lower()]  # lower case but "I": the caller capitalises a sentence start
        out.append(word + (tok.whitespace if tok.i < last else ""))
    return "".join(out)


def as_subject(parsed: ParsedText, span: tuple[int, int], sentence_initial: bool) -> str:
    text = span_text(parsed, *span, cases=NOMINATIVE)
    return text[:1].upper() + text[1:] if sentence_initial else text


def as_agent(parsed: ParsedText, span: tuple[int, int], sentence_initial: bool) -> str:
    """The old subject after "by": objective case; lower-cased only if its capital was the sentence's (a
    proper noun that is also a word, opening the sentence, is no such case: the clause is skipped)."""
    from lemminflect import getAllLemmas

    text = span_text(parsed, *span, cases=OBJECTIVE)
    first = parsed.tokens[span[0]]
    if first.tag == "PRP":
        return text[:1].lower() + text[1:] if text[:2] != "I " and text != "I" else text
    function_word = first.pos in ("DET", "PRON", "ADP") or first.tag in ("DT", "PDT", "PRP$", "CD")
    known = bool(getAllLemmas(first.text.lower()))  # "Frances" is a name, "Thousands" a word
    following = parsed.tokens[span[0] + 1] if span[1] > span[0] else None
    name = first.tag in ("NNP", "NNPS") and (first.ent_type in NAME_TYPES or (
        following is not None and following.tag in ("NNP", "NNPS") and following.text[:1].isupper()))
    # "Marie Curie", "Google", a title before a name ("Pope Francis")
    acronym = first.text.isupper() and (len(first.text) > 1 or first.text != "A")  # "NASA", placeholder "X"
    if sentence_initial and known and not name and not acronym and first.tag in ("NNP", "NNPS"):
        # a proper noun that is also an English word opening the sentence ("City and Real could play"): its
        # capital may be the sentence's or a name's, and a lower-cased name reads as a word
        raise Skip(f"'{first.text}' opens the sentence: a name or a word, its capital cannot tell")
    if sentence_initial and first.text != "I" and not acronym and (function_word or (known and not name)):
        text = text[:1].lower() + text[1:]
    return text


#: adverbials the agent may follow (Quirk et al. 1985, ch. 18: the agent, usually the new information,
#: goes last); focusing adverbs must stay last ("too", "also")
ADJUNCT_DEPS = ("prep", "advmod", "npadvmod")
STAY_LAST = frozenset({"too", "also", "either", "as"})
#: adjuncts this long, and more than twice the agent's length, go after the agent (end weight, Quirk et al.
#: 1985, ch. 18: the heavier phrase goes last): "had been won by Werth at the first tournament in Achleiten"
HEAVY_ADJUNCT_TOKENS = 4


def adjunct_end(parsed: ParsedText, clause: Clause, agent_tokens: int) -> int:
    """Last token of the clause-free adverbials right after the rewritten clause that the agent follows:
    those that are not clearly heavier than the agent (end weight: a heavier phrase goes after it)."""
    end = clause.last
    for child in sorted(parsed.children(clause.verb.i), key=lambda t: t.i):
        if child.i <= clause.last:
            continue
        inside = members(parsed, child.i)
        if (child.dep not in ADJUNCT_DEPS or min(inside) != end + 1 or child.text.lower() in STAY_LAST
                or any(parsed.tokens[i].pos in ("VERB", "AUX", "PUNCT") for i in inside)
                or len(inside) != max(inside) - min(inside) + 1
                or heavier(max(inside) - clause.last, agent_tokens)):
            break
        end = max(inside)
    return end


def heavier(adjunct_tokens: int, agent_tokens: int) -> bool:
    """Whether the adverbials are clearly the heavier phrase, which goes last (end weight)."""
    return adjunct_tokens >= HEAVY_ADJUNCT_TOKENS and adjunct_tokens > 2 * agent_tokens


def check_pronouns_before_agent(parsed: ParsedText, clause: Clause, end: int) -> None:
    """A pronoun in the adverbials that move before the agent could refer to it and would precede it
    ("The carrots were put in his garden by John"): skipped (Quirk et al. 1985, ch. 6)."""
    number = number_of(parsed, parsed.tokens[head_of(parsed, clause.subject)])
    if any(t.tag in ("PRP", "PRP$") and t.text.lower() in THIRD_PERSON and agrees(t.text.lower(), number)
           for t in parsed.tokens[clause.last + 1 : end + 1]):
        raise Skip("pronoun before the agent (it would precede its antecedent)")


def check_names_whole(parsed: ParsedText, clause: Clause) -> None:
    """A name or title must not be cut by the moved phrases (:func:`perturbations.language.names.name_spans`:
    entities, capitalised runs such as "English Without Tears"): spaCy often parses the first word of a
    title or a foreign name as the object and the rest as an adjunct. A name right after a moved phrase is
    its apposition ("the album Let Me In"), which the move would strand."""
    from perturbations.language.names import cuts_a_name, name_spans

    spans = name_spans(parsed)
    for first, last in (clause.subject, clause.promoted, *clause.kept):
        if cuts_a_name(spans, first, last):
            raise Skip("a name or title would be split by the rewrite")
    if any(start == clause.last + 1 for start, _ in spans):
        raise Skip("a name follows the moved phrase (apposition)")


def check_later_pronouns(parsed: ParsedText, clause: Clause) -> None:
    """A third-person pronoun after the clause that could refer to both the old subject and the old object
    ("The company hired the manager. It ...") most likely refers to the subject, the preferred antecedent
    (centering theory: Grosz, Joshi & Weinstein 1995); the passive makes the object the subject, so its
    reading could change. A pronoun that can refer to only one of them (by number) keeps its reading."""
    subject = number_of(parsed, parsed.tokens[head_of(parsed, clause.subject)])
    promoted = number_of(parsed, parsed.tokens[clause.promoted_head])
    for tok in parsed.tokens[clause.last + 1 :]:
        word = tok.text.lower()
        if tok.tag in ("PRP", "PRP$") and word in THIRD_PERSON and agrees(word, subject) and agrees(word, promoted):
            raise Skip("a later pronoun could change its antecedent")


def head_of(parsed: ParsedText, span: tuple[int, int]) -> int:
    """The token of ``span`` whose head lies outside it."""
    return next((t.i for t in parsed.tokens[span[0] : span[1] + 1] if t.head < span[0] or t.head > span[1]
                 or t.head == t.i), span[1])


def check_punctuation(parsed: ParsedText, first: int, last: int) -> None:
    """Commas, dashes, brackets and quotes inside the rewritten span belong to phrases that move apart;
    where they go is not decided by the grammar, so such clauses are skipped."""
    for tok in parsed.tokens[first : last + 1]:
        if tok.pos != "PUNCT" and not (tok.text and not any(ch.isalnum() for ch in tok.text)):
            continue
        glued = tok.i > 0 and parsed.tokens[tok.i - 1].whitespace == "" and tok.whitespace == ""
        if tok.text in WORD_JOINERS and glued:
            continue
        if tok.text == "." and tok.i > 0 and parsed.tokens[tok.i - 1].whitespace == "":
            continue  # an abbreviation's period ("Dr.", "U.S.")
        raise Skip(f"punctuation '{tok.text}' inside the rewritten span")


def rewrite_clause(parsed: ParsedText, clause: Clause, pronoun_agent: str = "drop") -> tuple[Edit, dict]:
    """One edit replacing "subject ... verb object (complement)" by "object aux participle (complement) by
    subject", and the facts about it (its shape, tense, agent): the adjuncts after it stay where they were."""
    from perturbations.language.names import sentence_starts

    subject = span_text(parsed, *clause.subject).lower()
    pronoun = clause.subject[0] == clause.subject[1] and subject in GENERIC_PRONOUNS | REFERRING_PRONOUNS
    referring = pronoun and subject in REFERRING_PRONOUNS
    if pronoun and (pronoun_agent == "skip" or (pronoun_agent == "drop" and referring)):
        raise Skip(f"pronoun subject '{subject}' (its agent would read 'by {OBJECTIVE.get(subject, subject)}')")
    if pronoun and not referring and pronoun_agent == "drop" and not any(
            a.text.lower() in GENERIC_MODALS for a in clause.auxiliaries):
        raise Skip("'you' without a modal addresses the reader (dropping it loses who acts)")
    check_names_whole(parsed, clause)
    check_punctuation(parsed, clause.subject[0], clause.last)
    check_later_pronouns(parsed, clause)
    initial = clause.subject[0] in sentence_starts(parsed)
    if initial and parsed.tokens[clause.promoted[0]].text[:1].isdigit():
        raise Skip("the new subject would open the sentence with a numeral (Chicago Manual of Style, ch. 9)")
    person = agreement(parsed, parsed.tokens[clause.promoted_head])
    chain, tense = auxiliary_chain(clause, person)
    words = [with_pre_verb(chain, clause) + " " + participle(clause)]
    if clause.particle is not None:
        words.append(clause.particle.text)
    words += [span_text(parsed, *span) for span in clause.kept]
    dropped = pronoun and not referring and pronoun_agent == "drop"
    if clause.by_phrase_after and not dropped:
        raise Skip("a 'by' phrase already follows the object (two 'by' phrases)")
    last = clause.last
    if not dropped:
        agent = f"by {as_agent(parsed, clause.subject, initial)}"
        end = adjunct_end(parsed, clause, clause.subject[1] - clause.subject[0] + 1)
        if end > last:
            check_punctuation(parsed, last + 1, end)
            check_pronouns_before_agent(parsed, clause, end)
            words.append(span_text(parsed, last + 1, end))  # the agent goes last: "was founded in 2003 by"
            last = end
        words.append(agent)
    new = f"{as_subject(parsed, clause.promoted, initial)} {' '.join(words)}"
    agent_at = None if dropped else len(new) - len(agent)  # where "by" starts in the new text
    last_token = parsed.tokens[last]
    if last == clause.sentence[1] and len(last_token.text) > 1 and last_token.text.endswith("."):
        new += "."  # the abbreviation's period also ended the sentence ("at 4 P.M.")
    start = parsed.tokens[clause.subject[0]].idx
    stop = last_token.idx + len(last_token.text)
    sentence = (parsed.tokens[clause.sentence[0]].idx,
                parsed.tokens[clause.sentence[1]].idx + len(parsed.tokens[clause.sentence[1]].text))
    facts = {"clause": "main" if clause.verb.dep == "ROOT" else clause.verb.dep, "shape": clause.shape,
             "tense": tense, "agent": "dropped" if dropped else ("pronoun" if pronoun else "phrase"),
             "sentence": sentence, "agent_at": agent_at}
    return Edit(start, stop, parsed.text[start:stop], new), facts
