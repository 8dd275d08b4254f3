"""Multi-word units found in a parse: phrasal verbs WordNet lists ("look_for"), and the usage of a verb.

A word that is part of a unit has the unit's meaning, not its own ("looking for" is seeking, not
looking), so a swap must treat the unit as one word or leave it alone.
"""

from __future__ import annotations

from perturbations.language import senses
from rome.core.parsing import ParsedText, Token

#: dependents that give a verb an object (WordNet frames "Somebody ----s something")
_OBJECT_DEPS = frozenset({"dobj", "nsubjpass", "dative", "attr", "oprd"})


def phrasal_verb(parsed: ParsedText, i: int) -> str | None:
    """``look_for`` when the verb's next token is its particle/preposition and WordNet has the pair
    with a dominant sense."""
    if i + 1 >= len(parsed.tokens):
        return None
    nxt = parsed.tokens[i + 1]
    if nxt.head != i or nxt.dep not in ("prep", "prt") or not nxt.text.isalpha():
        return None
    name = f"{parsed.tokens[i].lemma.lower()}_{nxt.text.lower()}"
    return name if senses.top_sense(name, "v") is not None else None


def verb_usage(verb: Token, children: list[Token]) -> str:
    """How a verb is used, as WordNet's frames group it: a participle ("is located", "a hotel called X"),
    with an object, an infinitive, a clause, or none."""
    deps = {c.dep for c in children}
    if verb.tag == "VBN":
        return "passive"
    if "ccomp" in deps:  # "help you find": the clause decides the frame, not the object before it
        return "clause"
    if "xcomp" in deps:
        return "infinitive"
    if deps & _OBJECT_DEPS:
        return "object"
    return "intransitive"
