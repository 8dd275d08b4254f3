"""Contractions (CheckList's ``Perturb.contractions``, Ribeiro et al., 2020) that keep tense and word order.

Two variants at most, both ``invariant``: every contraction expanded ("isn't" -> "is not") and
every contractable pair contracted ("it is" -> "it's"); ``meta["direction"]`` says which.

CheckList maps strings ("it's" -> "it is", "can't" -> "cannot") without looking at the sentence, so
"It's been" became "It is been", "why can't it" "why cannot it" and "in it's mouth" "in it is
mouth". Here each contraction is read on spaCy's parse, with the rules of English grammar for
contracted forms (Quirk et al. 1985, A Comprehensive Grammar of the English Language, §3.23
"contracted forms", §3.37 "enclitic negation" and §2.55 on inverted questions):

* ``'s`` is *has* before "been"/"got", *is* before anything but a participle, and left alone
  before another participle ("he's gone": has or is?) and when it is a possessive (tagged ``POS``);
* ``'d`` is *would* before a bare verb, *had* before a participle or "better", else left alone;
* a negated auxiliary before its subject (a question, "why can't it", "Didn't anyone tell") is
  not expanded: "not" cannot stay there ("why cannot it") and moving it changes the word order;
* a clitic whose host is not its subject ("in it's mouth": a possessive spelt "it's") is left alone;
* contracting: only an auxiliary or copula right after a pronoun subject ("it is" -> "it's") or an
  auxiliary right before its "not", never one that ends its clause ("I know where it is." cannot
  become "where it's.") or stands before its subject;
* "let's", "ain't", "y'all" and other forms with no single full form are left alone.

A text with nothing to change either way is skipped. Needs only the shared spaCy parser.
"""

from __future__ import annotations

from perturbations.base import Edit, TwoWayRewrite
from perturbations.language.casing import match_case
from rome.core.parsing import ParsedText, Token

#: clitic -> full form, where the form alone decides it
CLITICS = {"'m": "am", "'re": "are", "'ve": "have", "'ll": "will"}
#: negated hosts spelt differently from the full auxiliary ("won't", "can't", "shan't")
NEGATED_HOSTS = {"wo": "will", "ca": "can", "sha": "shall"}
#: auxiliary -> its negative contraction (Quirk et al. 1985, §3.37); "am not" has none in standard English
NEGATIVE_CONTRACTIONS = {
    "is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "do": "don't", "does": "doesn't",
    "did": "didn't", "have": "haven't", "has": "hasn't", "had": "hadn't", "will": "won't", "would": "wouldn't",
    "could": "couldn't", "should": "shouldn't", "can": "can't", "must": "mustn't",
}
#: pronoun subject -> the auxiliaries it contracts with (Quirk et al. 1985, §3.23)
PRONOUN_CLITICS = {
    "i": {"am": "'m", "have": "'ve", "will": "'ll", "would": "'d", "had": "'d"},
    "you": {"are": "'re", "have": "'ve", "will": "'ll", "would": "'d", "had": "'d"},
    "we": {"are": "'re", "have": "'ve", "will": "'ll", "would": "'d", "had": "'d"},
    "they": {"are": "'re", "have": "'ve", "will": "'ll", "would": "'d", "had": "'d"},
    "he": {"is": "'s", "has": "'s", "will": "'ll", "would": "'d", "had": "'d"},
    "she": {"is": "'s", "has": "'s", "will": "'ll", "would": "'d", "had": "'d"},
    "it": {"is": "'s", "has": "'s", "will": "'ll"},
    "that": {"is": "'s"},
    "there": {"is": "'s"},
}
#: auxiliaries that are contracted only as auxiliaries ("I have a car" stays: "I've a car" is regional)
AUXILIARY_ONLY = frozenset({"have", "has", "had", "would", "will"})
SUBJECT_DEPS = ("nsubj", "nsubjpass", "expl", "csubj")


def _apostrophe(text: str) -> str:
    return "’" if "’" in text and "'" not in text else "'"


def _norm(word: str) -> str:
    return word.lower().replace("’", "'")


def _subject_of(parsed: ParsedText, tok: Token) -> Token | None:
    """The subject of the clause ``tok`` belongs to (its own, or its head's when ``tok`` is an auxiliary)."""
    for head in (tok.i, tok.head):
        for child in parsed.children(head):
            if child.dep in SUBJECT_DEPS:
                return child
    return None


def _next_content(parsed: ParsedText, i: int) -> Token | None:
    """The first token after ``i`` that is not an adverb or negation ("'s never been" -> "been")."""
    for tok in parsed.tokens[i + 1 :]:
        if tok.text.lower() == "better":  # "I'd better": had
            return tok
        if tok.tag in ("RB", "RBR", "RBS") or _norm(tok.text) in ("not", "n't"):
            continue
        return tok
    return None


class Contractions(TwoWayRewrite):
    """Expand every contraction, or contract every contractable pair (``invariant``; see the module docstring)."""

    kind = "contractions"
    directions = ("expand", "contract")
    nothing_to_do = "no contraction to expand and no pair to contract (tense and word order kept)"

    def edits(self, parsed: ParsedText, direction: str) -> list[Edit]:
        return outside_names(parsed, self.expansions(parsed) if direction == "expand" else self.contractions(parsed))

    # -- expanding ------------------------------------------------------------------------------
    def expansions(self, parsed: ParsedText) -> list[Edit]:
        edits = []
        for tok in parsed.tokens:
            if tok.i == 0 or parsed.tokens[tok.i - 1].whitespace:
                continue  # a clitic is written against its host
            host = parsed.tokens[tok.i - 1]
            edit = self._expand(parsed, host, tok)
            if edit is not None:
                edits.append(edit)
        return edits

    def _expand(self, parsed: ParsedText, host: Token, clitic: Token) -> Edit | None:
        form = _norm(clitic.text)
        if form == "n't":
            full = NEGATED_HOSTS.get(host.text.lower(), host.text.lower())
            if full not in NEGATIVE_CONTRACTIONS or full == "ai":
                return None
            subject = _subject_of(parsed, host)
            if subject is not None and subject.i > host.i:
                return None  # inverted: "why can't it", "Didn't anyone tell"
            new = match_case(full, host.text) + ("not" if full == "can" else " not")
            return Edit(host.idx, clitic.idx + len(clitic.text), host.text + clitic.text, new)
        if form not in CLITICS and form not in ("'s", "'d"):
            return None
        if clitic.tag == "POS" or host.text.lower() == "let" or not host.text.isalpha():
            return None
        subject = _subject_of(parsed, clitic)
        if subject is None or subject.i != host.i:
            return None  # the host is not the clitic's subject ("in it's mouth")
        after = _next_content(parsed, clitic.i)
        if form == "'s":
            if after is not None and after.text.lower() in ("been", "got"):
                full = "has"
            elif after is not None and after.tag == "VBN":
                return None  # "he's gone": has or is
            else:
                full = "is"
        elif form == "'d":
            if after is not None and (after.tag == "VBN" or after.text.lower() == "better"):
                full = "had"
            elif after is not None and after.tag == "VB":
                full = "would"
            else:
                return None
        else:
            full = CLITICS[form]
        new = " " + (full.upper() if clitic.text.isupper() and len(clitic.text) > 2 else full)
        return Edit(clitic.idx, clitic.idx + len(clitic.text), clitic.text, new)

    # -- contracting ----------------------------------------------------------------------------
    def contractions(self, parsed: ParsedText) -> list[Edit]:
        apostrophe = _apostrophe(parsed.text)
        edits: list[Edit] = []
        tokens = parsed.tokens
        used: set[int] = set()
        for tok in tokens:
            word = tok.text.lower()
            nxt = tokens[tok.i + 1] if tok.i + 1 < len(tokens) else None
            if nxt is None or tok.i in used:
                continue
            if nxt.text.lower() == "not" and nxt.dep == "neg" and tok.pos == "AUX" and word in NEGATIVE_CONTRACTIONS:
                subject = _subject_of(parsed, tok)
                if subject is not None and subject.i > tok.i:
                    continue  # "Is it not" stays
                if tok.whitespace == "" and word != "can":
                    continue
                new = match_case(NEGATIVE_CONTRACTIONS[word].replace("'", apostrophe), tok.text)
                edits.append(Edit(tok.idx, nxt.idx + len(nxt.text), parsed.text[tok.idx : nxt.idx + len(nxt.text)], new))
                used |= {tok.i, nxt.i}
                continue
            clitic = PRONOUN_CLITICS.get(word, {}).get(nxt.text.lower())
            if clitic is None or tok.dep not in SUBJECT_DEPS or tok.head not in (nxt.i, nxt.head) or nxt.i in used:
                continue
            if nxt.text.lower() in AUXILIARY_ONLY and nxt.dep not in ("aux", "auxpass"):
                continue
            if nxt.tag not in ("VBP", "VBZ", "VBD", "MD"):
                continue  # a non-finite "have" after a modal ("Would they have been") keeps its form
            after = tokens[nxt.i + 1] if nxt.i + 1 < len(tokens) else None
            if nxt.whitespace == "" or tok.whitespace == "":
                continue  # already glued to a clitic ("It isn't")
            if after is None or after.pos == "PUNCT":
                continue  # a stranded auxiliary is never contracted ("where it is.")
            if after.text.lower() in ("not", "n't") and nxt.text.lower() in ("will", "would", "shall"):
                continue  # the negation contracts instead ("it won't", not "it'll not"; Biber et al. 1999, 3.8.5)
            if nxt.text.lower() == "has" and (after.tag != "VBN" and after.text.lower() != "been"):
                continue  # "it's" is read as "it is" unless a participle follows
            edits.append(Edit(tok.idx, nxt.idx + len(nxt.text), parsed.text[tok.idx : nxt.idx + len(nxt.text)],
                              tok.text + clitic.replace("'", apostrophe)))
            used |= {tok.i, nxt.i}
        return edits


def outside_names(parsed: ParsedText, edits: list[Edit]) -> list[Edit]:
    """Edits that touch no name or title (:func:`perturbations.language.names.name_spans`): a title is
    quoted as written ("It's Great to Be Young", "This'll Be My Year"), so expanding its contraction
    changes the name, not the wording."""
    from perturbations.language.names import name_spans

    tokens = parsed.tokens
    ranges = [(tokens[a].idx, tokens[b - 1].idx + len(tokens[b - 1].text)) for a, b in name_spans(parsed)]
    return [e for e in edits if not any(e.start < end and start < e.end for start, end in ranges)]
