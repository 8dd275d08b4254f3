"""The usage of a verb in a parse, as WordNet's verb frames group it (a swap must keep the frame).

Multi-word units (a word whose meaning is the unit's: "looking for" is seeking, not looking) are
:class:`perturbations.constraints.MultiWordUnits`.
"""

from __future__ import annotations

from rome.core.parsing import Token

#: dependents that give a verb an object (WordNet frames "Somebody ----s something")
_OBJECT_DEPS = frozenset({"dobj", "nsubjpass", "dative", "attr", "oprd"})


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
