"""The optional "that" of a complement clause dropped or inserted (``invariant``).

"She said that the hotel was full" <-> "She said the hotel was full": after verbs of saying and
thinking the complementiser of an object clause is optional, with no change of meaning (Quirk et al.
1985, A Comprehensive Grammar of the English Language, on *that*-clauses; Biber et al. 1999, Longman
Grammar of Spoken and Written English, on *that*-omission: commonest after *think* and *say*).
Two variants at most: every droppable "that" dropped (``meta["direction"] == "drop"``) and every
clause that can take one given it (``"insert"``). Read on spaCy's parse:

* the "that" is the ``mark`` of a ``ccomp`` clause whose head is one of :data:`DROP_VERBS`, written
  right after the verb (no object, adverbial or comma between: "told me that", "said, that",
  "said in May that" keep it), and the clause's subject follows it at once ("that, in 2010, the
  firm ..." keeps it);
* the verb is active ("It was said that ..." keeps it) and not a noun's or adjective's complement
  ("the fact that", "sure that": only verbs are heads here); relative clauses ("the hotel that ..."),
  demonstratives ("that hotel") and ``so that``/``now that`` are other dependencies and never touched;
* no garden path: a verb that also takes a noun object ("know", "believe", "feel", "find") drops
  "that" only before a personal pronoun subject ("I know that it is" -> "I know it is"), since
  "I know the manager is ..." is first read as "I know the manager"; only :data:`NP_VERBS`
  ("say", "think", "hope", ...), which do not take such an object, drop it before a noun subject,
  of at most :data:`MAX_SUBJECT` words with no comma ("said that the hotel was" -> "said the hotel was");
* a clause coordinated with another "that" clause keeps it ("said that X and that Y");
* inserting: a ``ccomp`` of one of :data:`INSERT_VERBS` with no complementiser, right after the verb,
  opening with its own subject (not a wh-word: "what you mean" is a question clause, and "What do you
  think is best?" has its subject moved out, where "that" is ungrammatical), the verb having its own
  subject and not being a parenthetical ("It is, I think, fine"), a "let's say" supposition or a
  comment clause ("like I said"), and the clause finite ("I found the hotel in your range" is a noun
  object, "I don't see them doing it" a non-finite clause: "that" makes either ungrammatical);
* no insertion where a wh-word stands before the verb and was moved out of its clause ("Who do you think
  Snoke is?", "What do you believe the city will look like?", "I know what you think he did"): "that"
  after the verb of a wh-extraction is ungrammatical (the *that*-trace effect) or at best strained;
  a wh-word of a relative or adverbial clause ("the man who came said ...", "when I arrived, I saw ...")
  is no extraction, nor is the relative subject of the verb itself ("officials, who said ...") or the
  word opening its adverbial clause ("when the data showed ...") (:func:`_wh_extracted`);
* no insertion before a subject that could be read as the verb's noun object: a verb that also takes
  one (not :data:`CLAUSE_VERBS`) gets "that" only before a personal pronoun subject ("I saw he was
  gone", not "I saw Dáda's wreath and Lucie has some", where the words after "saw" are its object), and
  no verb gets it before a coordinated subject ("X and Y ..." may be an object and a new clause);
* no insertion in a clause inside a complement that went before ("said he thought it was": "that" is
  not stacked) nor after a reporting verb that follows a quotation ('"...", she said she experienced'),
  and no drop before a clause opening with a particle or adverb ("thinks that about 3 billion people
  ..."), which would join the verb ("thinks about");
* letter case: in upper-case text the inserted word is "THAT"; a verb written with a capital inside its
  sentence is a title-case heading's ("He Said That The Hotel Was Full"), left alone either way.

A text with nothing to drop or insert is skipped. Needs only the shared spaCy parser.
"""

from __future__ import annotations

import functools

from perturbations.base import Edit, TwoWayRewrite
from rome.core.parsing import ParsedText, Token

#: verbs with no noun-object reading before a clause: "that" drops before any short subject
NP_VERBS = frozenset({"say", "think", "hope", "reckon"})
#: verbs whose "that" is dropped only before a personal pronoun subject
PRONOUN_VERBS = frozenset({"believe", "know", "feel", "guess", "suppose", "realise", "realize", "wish",
                           "suspect", "claim", "assume", "figure", "imagine", "bet", "doubt"} - {"doubt"})
DROP_VERBS = NP_VERBS | PRONOUN_VERBS
#: verbs whose bare object clause may take "that"
INSERT_VERBS = DROP_VERBS | frozenset({"find", "notice", "learn", "understand", "agree", "admit", "announce",
                                       "report", "state", "argue", "explain", "confirm", "decide", "mention",
                                       "see", "hear", "show", "remember", "forget", "promise", "insist"})
#: verbs that take no noun object before a clause: "that" is inserted before any subject
CLAUSE_VERBS = NP_VERBS | frozenset({"agree", "insist", "suppose"})
#: quotation marks as the tokenizer writes them (a reporting clause after a closing one takes no "that")
QUOTE_MARKS = ('"', "“", "”", "'", "‘", "’", "``", "''")
#: dependencies of a clause a wh-word may belong to without being moved out of the complement
OTHER_CLAUSES = ("relcl", "advcl", "acl", "csubj", "csubjpass")
#: personal pronouns that open a clause unambiguously as its subject ("there" as an expletive)
SUBJECT_PRONOUNS = frozenset({"i", "he", "she", "we", "they", "you", "it", "there"})
SUBJECT_DEPS = ("nsubj", "nsubjpass", "expl")
MAX_SUBJECT = 4
WH_TAGS = ("WDT", "WP", "WP$", "WRB")
#: tags of a finite verb: only a finite clause can follow an inserted "that"
FINITE_TAGS = ("VBD", "VBZ", "VBP", "MD")


def _subtree(parsed: ParsedText, i: int) -> list[int]:
    out, todo = [], [i]
    while todo:
        j = todo.pop()
        out.append(j)
        todo.extend(c.i for c in parsed.children(j))
    return sorted(out)


def _subject(parsed: ParsedText, clause: Token) -> Token | None:
    return next((c for c in parsed.children(clause.i) if c.dep in SUBJECT_DEPS), None)


def _passive(parsed: ParsedText, verb: Token) -> bool:
    return any(c.dep in ("auxpass", "nsubjpass") for c in parsed.children(verb.i))


@functools.lru_cache(maxsize=1)
def _forms() -> dict[str, str]:
    """Every inflected form of :data:`INSERT_VERBS` -> its lemma (lemminflect): spaCy's lemmatiser
    reads "hoped" as "hop"."""
    from lemminflect import getAllInflections

    out = {}
    for lemma in sorted(INSERT_VERBS):
        for forms in getAllInflections(lemma, upos="VERB").values():
            for form in forms:
                out.setdefault(form.lower(), lemma)
        out[lemma] = lemma
    return out


def lemma_of(verb: Token) -> str:
    return _forms().get(verb.text.lower(), verb.lemma.lower())


def _verb_ok(parsed: ParsedText, verb: Token, verbs: frozenset[str]) -> bool:
    return verb.pos == "VERB" and lemma_of(verb) in verbs and not _passive(parsed, verb)


def _finite(parsed: ParsedText, clause: Token) -> bool:
    """Whether ``clause`` has a finite verb ("the inn is at ..." yes; "them doing ...", "the inn at
    2601 mason st" misparsed as a clause, no): "that" may open only a finite clause."""
    children = parsed.children(clause.i)
    if any(c.tag == "TO" or c.text.lower() == "to" and c.dep == "aux" for c in children):
        return False  # "believe it to come(s)": an infinitive, whatever the verb's tag says
    if clause.tag in FINITE_TAGS:
        return True
    return any(c.dep in ("aux", "auxpass") and c.tag in FINITE_TAGS for c in children)


def _wh_extracted(parsed: ParsedText, verb: Token) -> bool:
    """Whether a wh-word before ``verb`` in its sentence was moved out of a clause: one whose way up the
    parse to ``verb`` (or to the sentence's root) passes through no relative or adverbial clause."""
    tokens = parsed.tokens
    root = _root(parsed, verb.i)
    sentence = _subtree(parsed, root)  # the verb's sentence only: a long text is read once per sentence
    for wh in (tokens[i] for i in sentence if i < verb.i):
        if wh.tag not in WH_TAGS:
            continue
        if wh.head == verb.i and verb.dep in OTHER_CLAUSES and (
                wh.dep in SUBJECT_DEPS or wh.dep in ("advmod", "mark") and wh.i == _subtree(parsed, verb.i)[0]):
            continue  # the verb's own relative subject ("who said ...") or its clause's subordinator ("when ...")
        j = wh.i
        while j != verb.i and tokens[j].dep not in OTHER_CLAUSES and tokens[j].head != j:
            j = tokens[j].head
        if j == verb.i or tokens[j].dep not in OTHER_CLAUSES:
            return True
    return False


def _root(parsed: ParsedText, i: int) -> int:
    seen = set()
    while parsed.tokens[i].head != i and i not in seen:
        seen.add(i)
        i = parsed.tokens[i].head
    return i


def _after_quotation(parsed: ParsedText, word: Token) -> bool:
    """Whether ``word`` follows a closing quotation mark, across commas only: it opens a reporting clause
    ('"...", she said'), not a quoted one ('"I think ...')."""
    tokens = parsed.tokens
    j = word.i - 1
    while j >= 0 and tokens[j].pos == "PUNCT":
        mark = tokens[j].text
        opening = "“" in mark or "‘" in mark or "``" in mark
        if any(q in mark for q in QUOTE_MARKS) and not opening and j > 0 and not tokens[j - 1].whitespace:
            return True  # written against the word or comma before it: a closing mark
        j -= 1
    return False


def _title_case(word: Token) -> bool:
    """A word capitalised but not upper-case: a verb written so inside its sentence is a heading's."""
    return word.text[:1].isupper() and not (len(word.text) > 1 and word.text.isupper())


def _coordinated_that(parsed: ParsedText, clause: Token) -> bool:
    """Whether the clause is coordinated with another clause (either side) that has a "that"."""
    linked = [c for c in parsed.children(clause.i) if c.dep == "conj"]
    if clause.dep == "conj":
        linked.append(parsed.tokens[clause.head])
    return any(m.dep == "mark" and m.text.lower() == "that" for c in linked for m in parsed.children(c.i)) or \
        any(c.dep == "conj" for c in parsed.children(clause.i))


class OptionalThat(TwoWayRewrite):
    """Drop every optional complementiser "that", or insert one where a clause may take it (``invariant``)."""

    kind = "optional_that"
    directions = ("drop", "insert")
    nothing_to_do = 'no complement clause whose "that" is optional after its verb'

    def edits(self, parsed: ParsedText, direction: str) -> list[Edit]:
        return self.drops(parsed) if direction == "drop" else self.insertions(parsed)

    def drops(self, parsed: ParsedText) -> list[Edit]:
        tokens, edits = parsed.tokens, []
        for that in tokens:
            if that.text.lower() != "that" or that.dep != "mark" or that.i == 0 or that.i + 1 >= len(tokens):
                continue
            clause = tokens[that.head]
            if clause.dep not in ("ccomp", "conj") or clause.i <= that.i:
                continue
            if clause.dep == "conj":
                continue  # "and that Y": the first clause's "that" decides
            verb = tokens[clause.head]
            if verb.i != that.i - 1 or not verb.whitespace or not _verb_ok(parsed, verb, DROP_VERBS):
                continue
            if _title_case(verb) or _title_case(that):
                continue  # a title-case heading keeps its "That"
            subject = _subject(parsed, clause)
            if subject is None or _coordinated_that(parsed, clause):
                continue
            words = _subtree(parsed, subject.i)
            if words[0] != that.i + 1 or words[-1] - words[0] + 1 != len(words):
                continue
            first = tokens[words[0]]
            if first.text.lower() in ("that", "this", "these", "those") or first.tag in WH_TAGS:
                continue
            if first.pos in ("ADP", "ADV", "PART"):
                continue  # "thinks that about 3 billion ..." -> "thinks about ...": a particle would join the verb
            pronoun = len(words) == 1 and first.text.lower() in SUBJECT_PRONOUNS
            if not pronoun:
                if lemma_of(verb) not in NP_VERBS or len(words) > MAX_SUBJECT:
                    continue
                if subject.tag == "NN" and not any(tokens[j].tag in ("DT", "PRP$", "CD", "POS") for j in words):
                    continue  # "think that hotel is nice": "that" may be the noun's determiner
                if any(tokens[j].pos == "PUNCT" or tokens[j].dep == "relcl" for j in words):
                    continue
            edits.append(Edit(that.idx, tokens[that.i + 1].idx, parsed.text[that.idx : tokens[that.i + 1].idx], ""))
        return edits

    def insertions(self, parsed: ParsedText) -> list[Edit]:
        tokens, edits = parsed.tokens, []
        for clause in tokens:
            if clause.dep != "ccomp":
                continue
            verb = tokens[clause.head]
            if verb.i >= clause.i or not verb.whitespace or not _verb_ok(parsed, verb, INSERT_VERBS):
                continue
            if verb.dep in ("parataxis",) or _subject(parsed, verb) is None:
                continue  # "It is, I think, fine"; an imperative "say we go" is a supposition
            if verb.i > 0 and tokens[verb.i - 1].text.lower() in ("let", "'s", "’s"):
                continue
            speaker = _subject(parsed, verb)
            if speaker.i > 0 and tokens[speaker.i - 1].text.lower() in ("like", "as"):
                continue  # "like I said there are ...": a comment clause takes no "that"
            if speaker.i > verb.i or _after_quotation(parsed, speaker):
                continue  # '"...," said X', '"...", she said she ...': a reporting clause, not a clause's verb
            if verb.dep == "ccomp" and verb.head < verb.i and not any(
                    t.text in (":", *QUOTE_MARKS) for t in tokens[verb.head + 1 : verb.i]):
                continue  # "said he thought it was": "that" in the outer clause only, never stacked
            if not _finite(parsed, clause):
                continue
            if any(c.dep == "mark" for c in parsed.children(clause.i)):
                continue
            subject = _subject(parsed, clause)
            if subject is None:
                continue
            clause_words = _subtree(parsed, clause.i)
            first = tokens[clause_words[0]]
            if first.i != verb.i + 1 or _subtree(parsed, subject.i)[0] != first.i:
                continue
            if first.tag in WH_TAGS or first.pos == "PUNCT" or first.text.lower() in ("that", "if", "whether"):
                continue
            if _wh_extracted(parsed, verb):
                continue
            if any(c.dep == "conj" for c in parsed.children(subject.i)):
                continue  # "saw X and Y has ...": X may be the verb's object, Y a new clause's subject
            if lemma_of(verb) not in CLAUSE_VERBS and subject.text.lower() not in SUBJECT_PRONOUNS:
                continue  # "saw Dáda's wreath ...": a noun phrase after such a verb reads as its object
            upper = len(verb.text) > 1 and verb.text.isupper()
            if _title_case(verb) or upper and not first.text.isupper():
                continue  # a heading in title case, or an upper-case verb before a word that is not
            edits.append(Edit(first.idx, first.idx, "", "THAT " if upper else "that "))
        return edits
