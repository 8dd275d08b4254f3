"""Finding an active transitive clause the passive transform can rewrite, or the reason it cannot.

Every rule here refuses a sentence shape whose passive would be wrong or change the meaning;
most were found by reading the transform's output on CoLA's acceptable dev sentences and on
the Novikova references (see docs/perturbations.md). spaCy's parse is trusted only where the
words agree with it (known verb forms, subject-verb agreement, noun objects).
"""

from __future__ import annotations

from dataclasses import dataclass

from rome.core.parsing import ParsedText, Token

#: parts of speech a preposition never has: a "prep" dependency on one of them is a misparse, usually of a
#: name the parse split ("reach the harbor court hotel c a kimpton hotel": "c" read as a preposition)
NOT_PREPOSITIONS = frozenset({"NOUN", "PROPN", "PRON", "DET", "NUM", "X"})

#: person and number of pronoun subjects: "1s", "3s", "pl" ("you" takes plural verb forms)
PRONOUN_AGREEMENT = {
    "i": "1s", "me": "1s", "he": "3s", "him": "3s", "she": "3s", "her": "3s", "it": "3s",
    "we": "pl", "us": "pl", "they": "pl", "them": "pl", "you": "pl",
    "this": "3s", "that": "3s", "these": "pl", "those": "pl", "one": "3s",
    "everything": "3s", "something": "3s", "nothing": "3s", "anything": "3s",
    "everyone": "3s", "someone": "3s", "everybody": "3s", "somebody": "3s",
}
#: middle verbs, whose object does not passivize ("The hotel has wifi" -/-> "Wifi is had by the hotel";
#: "The coat fits you", "John resembles his father", "The book costs ten dollars"): after Quirk et al.
#: (1985), A Comprehensive Grammar of the English Language, §3.70 and §10.13 ("middle verbs").
#: Verbs whose dominant sense is stative in WordNet are refused as well (:func:`stative_use`); "do"
#: is also a pro-verb in ellipsis ("he does Barcelona") and "get" has no natural passive of possession.
MIDDLE_VERBS = frozenset({
    "have", "lack", "resemble", "suit", "fit", "become", "cost", "weigh", "equal", "mean", "contain",
    "hold", "comprise", "last", "measure", "total", "number", "let", "get", "do", "possess", "own",
})
#: noun phrases that name a quantity, not a participant: "over sixty percent", "25 %", "ten dollars"
MEASURE_WORDS = frozenset({"percent", "per", "cent", "%", "percentage", "proportion", "share", "amount", "half",
                           "third", "quarter", "majority", "minority", "total", "average", "rate"})
#: negative and universal quantifiers whose scope changes when they move ("is developed by no one")
NEGATIVE_OR_UNIVERSAL = frozenset({"no", "none", "nobody", "nothing", "neither", "nor", "never", "every",
                                   "everyone", "everybody", "everything", "all", "each", "any", "anyone",
                                   "anybody", "anything", "someone", "somebody", "something"})
#: verbs that are also copulas ("This proved a decisive factor", "They make good cooks")
COPULA_LIKE = frozenset({"prove", "make", "turn", "remain", "form", "constitute"})
#: verb + noun idioms whose noun is no patient ("take place", "take a long time", "make sense")
IDIOMS = {
    "take": {"place", "part", "time", "care", "advantage", "turn", "turns", "note", "notice", "effect", "hold",
             "second", "minute", "hour", "day", "week", "month", "year", "while", "age",
             "snooze", "nap", "walk", "look", "break", "rest", "shower", "bath", "breath", "seat"},
    "make": {"sense", "sure", "way", "progress", "use", "fun", "room", "headway", "mind"},
    "change": {"mind"},
    "pay": {"attention", "heed"}, "play": {"role", "part"}, "catch": {"fire", "sight"}, "lose": {"sight", "track", "touch"},
    "keep": {"track", "pace", "touch"}, "give": {"way", "rise"}, "do": {"justice"},
}
#: verbs with two objects or an object predicate; spaCy sometimes reads "gave John gold apples" or
#: "elected Graham chairman" as one noun phrase
DITRANSITIVE = frozenset({"give", "send", "hand", "lend", "show", "tell", "offer", "bring", "teach", "pay",
                          "owe", "sell", "award", "grant", "promise", "throw", "pass", "feed", "buy", "leave",
                          "elect", "name", "appoint", "call", "crown", "declare", "dub", "label", "vote",
                          "consider", "deem", "make", "cook", "bake", "envy", "find", "build", "fetch",
                          "pour", "save", "spare", "write", "allow", "deny", "ask", "bet", "wish"})
#: plural nouns without -s that are never singular (other -s-less "NNS" tags are tagger slips: "the yolk")
PLURAL_WITHOUT_S = frozenset({"people", "police", "cattle", "clergy", "livestock", "personnel", "children",
                              "men", "women", "feet", "teeth", "mice", "geese", "data", "criteria"})
QUANTIFIERS = frozenset({"every", "each", "all", "some", "no", "most", "many", "few", "several", "any", "both",
                         "everyone", "everybody", "someone", "somebody", "nobody", "everything"})
REFLEXIVE = frozenset({"myself", "yourself", "himself", "herself", "itself", "ourselves", "yourselves",
                       "themselves", "oneself"})
WH_TAGS = ("WDT", "WP", "WP$", "WRB")
BLOCKING_DEPS = {
    "nsubjpass": "already passive", "auxpass": "already passive", "csubjpass": "already passive",
    "expl": "existential 'there' clause", "dative": "double object (dative)",
    "oprd": "object predicate", "ccomp": "clausal complement", "xcomp": "open clausal complement",
    "attr": "copular clause", "acomp": "copular clause", "csubj": "clausal subject",
    "dep": "unclear attachment", "appos": "unclear attachment", "meta": "unclear attachment",
}
#: third-person pronouns: only they can refer back to the old subject ("my car" cannot)
THIRD_PERSON = frozenset({"he", "him", "his", "she", "her", "hers", "it", "its", "they", "them", "their", "theirs"})
#: conjunctions that introduce a finite clause whose own subject, verb and object can be rewritten as a
#: whole without touching the conjunction ("because the police arrested him")
SUBORDINATORS = frozenset({"that", "because", "when", "after", "before", "although", "though", "while",
                           "since", "if", "until", "once", "whereas"})
FLOATING_QUANTIFIERS = frozenset({"both", "all", "each"})


class Skip(Exception):
    """A sentence the passive transform will not rewrite; the message is the reason reported."""


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
    sentence: tuple[int, int]


def members(parsed: ParsedText, i: int) -> set[int]:
    """Token indices of ``i``'s subtree."""
    found, frontier = {i}, [i]
    while frontier:
        head = frontier.pop()
        for tok in parsed.children(head):
            if tok.i not in found:
                found.add(tok.i)
                frontier.append(tok.i)
    return found


def subtree_span(parsed: ParsedText, i: int) -> tuple[int, int]:
    """First and last token of ``i``'s subtree; Skip if the subtree is not contiguous."""
    found = members(parsed, i)
    first, last = min(found), max(found)
    if len(found) != last - first + 1:
        raise Skip("discontinuous phrase")
    return first, last


def find_clause(parsed: ParsedText, root: Token) -> Clause:
    """Check that ``root`` heads a clause we can rewrite, and collect its parts."""
    found = members(parsed, root.i)
    sentence = (min(found), max(found))
    if any("?" in parsed.tokens[i].text for i in found):
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
    if subject.pos not in ("NOUN", "PROPN", "PRON", "NUM"):
        raise Skip("clausal or unusual subject")  # "That factories abound worries me"
    check_verb(parsed, root, obj)
    check_object(parsed, root, obj)
    subj_span, obj_span = subtree_span(parsed, subject.i), subtree_span(parsed, obj.i)
    check_spans(parsed, subj_span, obj_span, children)
    check_context(parsed, root, subject, subj_span, sentence)
    auxiliaries = tuple(c for c in children if c.dep == "aux")
    particle = next((c for c in children if c.dep == "prt"), None)
    if particle is not None and not _phrasal_verb_known(root, particle):
        raise Skip(f"'{root.text} {particle.text}' is no phrasal verb WordNet knows (possible misparse)")
    if any(c.dep in ("advcl", "xcomp") and c.i > obj.i and not any(k.dep.startswith("nsubj") for k in parsed.children(c.i))
           for c in children):
        raise Skip("participle clause after the object (its implied subject would change)")
    pre_verb = check_order(parsed, root, subj_span, obj_span, auxiliaries, particle)
    check_agreement(parsed, subject, auxiliaries[0] if auxiliaries else root)
    return Clause(subj_span, obj_span, obj.i, root, auxiliaries, pre_verb, particle, sentence)


def _phrasal_verb_known(verb: Token, particle: Token) -> bool:
    """Whether WordNet lists verb + particle as a verb ("turn_off"); spaCy reads some prepositions of
    intransitive verbs as particles ("coughed out the window")."""
    from perturbations.language.senses import wordnet

    return bool(wordnet().synsets(f"{verb_lemma(verb)}_{particle.text.lower()}", pos="v"))


def verb_lemma(verb: Token) -> str:
    """spaCy reads transitive "lay"/"laid" as forms of "lie"; with an object it is "lay"."""
    return "lay" if verb.text.lower() in ("lay", "lays", "laid", "laying") else verb.lemma.lower()


def check_verb(parsed: ParsedText, verb: Token, obj: Token) -> None:
    from lemminflect import getAllInflections

    lemma = verb_lemma(verb)
    if lemma in MIDDLE_VERBS:
        raise Skip(f"verb '{verb.text}' does not passivize (middle verb)")
    if stative_use(lemma):
        raise Skip(f"verb '{verb.text}' is stative in its dominant sense (WordNet verb.stative)")
    forms = {f for group in getAllInflections(lemma, upos="VERB").values() for f in group}
    if verb.text.lower() not in forms:  # misparses: "gluten free food" has no verb "gluten"
        raise Skip(f"'{verb.text}' is not a known form of the verb '{lemma}'")
    if obj.lemma.lower() in IDIOMS.get(lemma, ()) or obj.text.lower() in IDIOMS.get(lemma, ()):
        raise Skip(f"verb-noun idiom '{verb.text} ... {obj.text}'")
    if verb_object_idiom(lemma, obj.lemma.lower()):
        raise Skip(f"WordNet lists '{lemma} {obj.lemma.lower()}' as one verb (an idiom, no patient)")
    first = parsed.tokens[min(members(parsed, obj.i))]
    definite = first.tag in ("PRP$", "PRP", "NNP", "NNPS") or first.text.lower() in ("the", "this", "that",
                                                                                         "these", "those")
    if lemma in COPULA_LIKE and not definite:
        raise Skip(f"'{verb.text}' may be a copula here")


def verb_object_idiom(verb: str, noun: str) -> bool:
    """Whether WordNet lists verb + noun as one verb lemma ("take_office", "take_place", "pay_attention",
    "make_sense"): the noun of such an idiom names no participant, and its passive ("the office was taken
    by ...") reads as the literal verb."""
    from perturbations.language.senses import wordnet

    return noun.isalpha() and bool(wordnet().synsets(f"{verb}_{noun}", pos="v"))


def stative_use(lemma: str) -> bool:
    """Whether the most used sense of ``lemma`` with an object (WordNet's tag counts and verb frames) is
    in WordNet's lexicographer file ``verb.stative`` (include, exceed, average, contain, require): a
    state has no agent to put after "by" ("25 % is averaged by the rate", "the right is included by this").
    The sense must carry at least half of those uses, so that a verb with a stative minor reading
    ("stop") is not refused."""
    from perturbations.language.senses import most_used_sense, sense_counts

    sense = most_used_sense(lemma, "v", "object")
    counted = sense_counts(lemma, "v", "object")
    total = sum(c for _, c in counted)
    return sense is not None and sense.lexname() == "verb.stative" and counted[0][1] >= 0.5 * total


def check_object(parsed: ParsedText, verb: Token, obj: Token) -> None:
    from lemminflect import getAllLemmas

    word = obj.text.lower()
    if word in REFLEXIVE or word in ("other", "another"):
        raise Skip("reflexive or reciprocal object")
    text = " ".join(t.text.lower() for t in parsed.tokens[min(members(parsed, obj.i)) : max(members(parsed, obj.i)) + 1])
    if "each other" in text or "one another" in text:
        raise Skip("reciprocal inside the object (its binder would follow it)")  # "photos of each other"
    if verb_lemma(verb) in ("like", "love", "prefer", "hate") and any(
            c.dep == "aux" and c.text.lower() in ("would", "'d") for c in parsed.children(verb.i)):
        raise Skip("'would like' is a modal idiom (want), not a verb of liking")
    if obj.pos not in ("NOUN", "PROPN", "PRON", "NUM"):
        raise Skip(f"object '{obj.text}' is not a noun phrase")
    children = parsed.children(obj.i)
    bare = not any(c.dep in ("det", "poss", "amod", "nummod", "compound") for c in children)
    if obj.tag in ("NN", "NNS") and bare and "NOUN" not in getAllLemmas(word):
        raise Skip(f"object '{obj.text}' is not a noun")  # "lay motionless", "left singing"
    if verb_lemma(verb) in DITRANSITIVE and any(c.dep == "compound" and c.pos in ("PROPN", "PRON")
                                                 for c in children) and obj.pos == "NOUN":
        raise Skip("possible double object read as one noun phrase")
    if obj.text.lower() == "way":
        raise Skip("'way' construction")  # "whistled his way past the house"
    inside = [parsed.tokens[i] for i in sorted(members(parsed, obj.i))]
    if any(t.dep == "prep" and t.head == obj.i and t.text.lower() != "of" for t in inside):
        raise Skip("prepositional phrase may belong to the verb")  # "swatted the mosquito with the paper"
    if any(t.dep == "acl" and t.tag == "VBN" and not any(c.dep in ("agent", "prep") for c in parsed.children(t.i))
           for t in inside):
        raise Skip("participle after the object (possible object predicate)")  # "keep copies hidden"
    if inside[-1].tag == "POS":
        raise Skip("possessive at the end of the object")  # "spanked the child's back" misparsed
    if inside[-1].pos == "ADV":
        raise Skip("adverb at the end of the object")  # "mixed the eggs and the cream together"
    check_pronoun_inside(inside)
    check_clause_inside(inside)
    check_quantity(obj, inside)
    check_given_object(obj, inside, children)


def check_pronoun_inside(inside: list[Token]) -> None:
    """A pronoun inside the object would come before its antecedent, the old subject
    ("Her cell phone is consulted by a woman"): binding is a grammar fact, not a style."""
    if any(t.tag in ("PRP", "PRP$") and t.text.lower() in THIRD_PERSON for t in inside):
        raise Skip("pronoun inside the object (its antecedent would follow it)")


def check_clause_inside(inside: list[Token]) -> None:
    """A participle or infinitive inside the object is where spaCy misattaches most ("A bat playing
    baseball is being swung by a man"); a relative clause with its own subject ("the man who stole
    the car") moves with its noun."""
    if any(t.pos in ("VERB", "AUX") and t.dep in ("acl", "xcomp", "advcl", "ccomp") for t in inside):
        raise Skip("clause inside the object")


def check_quantity(obj: Token, inside: list[Token]) -> None:
    """An object that states a quantity ("over sixty percent", "25 %", "ten dollars") is a measure of
    the state the verb describes, not a participant the passive can promote (Quirk et al. 1985, §10.13)."""
    if obj.tag == "CD" or obj.ent_type in ("PERCENT", "MONEY", "QUANTITY", "CARDINAL") or any(
            t.text.lower() in MEASURE_WORDS for t in inside):
        raise Skip("object is a quantity, not a participant")


def check_given_object(obj: Token, inside: list[Token], children: list[Token]) -> None:
    """A bare singular common noun cannot be a subject ("Task was shared by ...", "high score is
    exhibited by ..."): English needs a determiner there, so an object without one is skipped
    (bare plurals and mass nouns in the plural are fine: "Apples were dumped into the cart")."""
    bare = not any(c.dep in ("det", "poss", "nummod") for c in children)
    if bare and obj.tag == "NN":
        raise Skip("bare singular object cannot become the subject")


def check_quantified_subject(tokens: tuple[Token, ...]) -> None:
    """A negative or universal quantifier in the subject changes scope when it becomes the agent
    ("No one develops X" -> "X is developed by no one")."""
    if {t.text.lower() for t in tokens} & NEGATIVE_OR_UNIVERSAL:
        raise Skip("quantified subject (its scope would change as agent)")


def check_spans(parsed: ParsedText, subj: tuple[int, int], obj: tuple[int, int], verb_children: list[Token]) -> None:
    """Refuse what the moved phrases would break: split suffixes, wh-words, polarity, inner commas."""
    tokens = parsed.tokens
    if tokens[subj[0]].tag in WH_TAGS or tokens[obj[0]].tag in WH_TAGS:
        raise Skip("question or relative clause")
    if tokens[obj[1]].pos == "PUNCT" or tokens[subj[1]].pos == "PUNCT":
        raise Skip("phrase ends in punctuation (misparse)")
    if tokens[subj[1]].text.lower() in FLOATING_QUANTIFIERS:
        raise Skip("floating quantifier after the subject")
    subj_words = {t.text.lower() for t in tokens[subj[0] : subj[1] + 1]} | {
        "#" for t in tokens[subj[0] : subj[1] + 1] if t.tag == "CD" or t.ent_type == "MONEY"}
    obj_words = {t.text.lower() for t in tokens[obj[0] : obj[1] + 1]} | {
        "#" for t in tokens[obj[0] : obj[1] + 1] if t.tag == "CD"}
    if (subj_words & (QUANTIFIERS | {"#"})) and obj_words & (QUANTIFIERS | {"#"}):
        raise Skip("two quantifiers (their scope could change)")  # "three students attended every seminar"
    check_quantified_subject(tokens[subj[0] : subj[1] + 1])
    if any(t.ent_type == "MONEY" for t in tokens[subj[0] : subj[1] + 1]):
        raise Skip("money as subject is no agent")  # "$50 won't buy a dress"
    if any(c.dep == "neg" for c in verb_children) and tokens[obj[0]].text.lower().startswith("any"):
        raise Skip("negative-polarity 'any' object cannot become the subject")
    after_obj = tokens[obj[1] + 1] if obj[1] + 1 < len(tokens) else None
    if any(t.text == "," for t in tokens[subj[0] : subj[1] + 1]) and after_obj is not None and after_obj.pos != "PUNCT":
        raise Skip("subject with an inner comma would need another comma as agent")


def check_context(parsed: ParsedText, verb: Token, subject: Token, subj: tuple[int, int],
                  sentence: tuple[int, int]) -> None:
    """The rest of the sentence must not depend on which phrase is the subject."""
    span = parsed.tokens[sentence[0] : sentence[1] + 1]
    for tok in span:
        if len(tok.text) > 1 and tok.text[0] == "-" and tok.text[1:].isalpha():
            raise Skip(f"split suffix '{tok.text}' (number unknown)")  # the data's "hotel -s"
    if any(t.text.lower() in REFLEXIVE for t in span):
        raise Skip("reflexive pronoun (its binder would change)")
    if any(t.text.lower() == "than" and t.i > verb.i for t in span):
        raise Skip("comparative clause")
    if any(t.pos == "AUX" and t.dep not in ("aux", "auxpass") and t.lemma.lower() != "be" for t in span):
        raise Skip("elliptical auxiliary ('Raffi should too')")
    if any(c.pos == "ADJ" and c.i > verb.i for c in parsed.children(verb.i)):
        raise Skip("adjective predicate after the object")  # "dropped its apple free"
    for tok in span:
        nxt = parsed.tokens[tok.i + 1] if tok.i + 1 < len(parsed.tokens) else None
        if nxt is not None and nxt.text.lower() == "n't":
            nxt = parsed.tokens[nxt.i + 1] if nxt.i + 1 < len(parsed.tokens) else None
        own_auxiliary = tok.dep == "aux" and tok.head == verb.i
        ends_clause = nxt is None or nxt.pos == "PUNCT" or nxt.text.lower() in ("too", "so", "either")
        if tok.lemma.lower() in ("do", "have") and not own_auxiliary and tok.i != verb.i and ends_clause:
            raise Skip("ellipsis ('... Felix doesn't')")
    if subject.text.lower() == "it" and any(t.pos in ("VERB", "AUX") and t.i > verb.i for t in span):
        raise Skip("possible extraposition with 'it'")
    for child in parsed.children(verb.i):
        if child.i > subj[0]:
            continue
        if child.dep == "mark" and not (verb.dep in ("ccomp", "advcl") and child.text.lower() in SUBORDINATORS):
            raise Skip("subordinate clause")
        clause_inside = any(parsed.tokens[i].pos in ("VERB", "AUX") for i in members(parsed, child.i))
        no_subject = not any(c.dep in ("nsubj", "nsubjpass") for c in parsed.children(child.i))
        if child.dep in ("advcl", "prep") and clause_inside and no_subject:
            raise Skip("fronted clause whose implied subject would change")


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
    if any(a.i < subj[0] for a in auxiliaries):
        raise Skip("question (auxiliary before the subject)")
    if any(a.i > verb.i for a in auxiliaries):
        raise Skip("unusual word order")
    pre_verb = []
    for tok in parsed.tokens[subj[1] + 1 : verb.i]:
        if tok in auxiliaries:
            continue
        if tok.head == verb.i and tok.dep in ("neg", "advmod") and tok.pos in ("PART", "ADV"):
            pre_verb.append(tok)
            continue
        raise Skip("material between subject and verb")
    if any(t is not particle for t in parsed.tokens[verb.i + 1 : obj[0]]):
        raise Skip("material between verb and object")
    if particle is not None and particle.i > obj[1] + 1:
        raise Skip("particle far from its verb")
    after = [c for c in parsed.children(verb.i) if c.i > obj[1]]
    if any(c.dep in ("conj", "cc") for c in after):
        raise Skip("coordination after the object")
    if any(c.dep in ("prep", "agent") and c.text.lower() == "by" for c in after):
        raise Skip("a 'by' phrase already follows the object")
    if any(c.dep == "prep" and c.pos in NOT_PREPOSITIONS for c in after):
        raise Skip("a noun or name parsed as a preposition after the object (misparse)")  # "... hotel c a ..."
    return tuple(pre_verb)


def agreement(parsed: ParsedText, head: Token) -> str:
    """Person and number of a noun phrase headed by ``head``: "1s", "3s" or "pl"."""
    children = parsed.children(head.i)
    if any(c.dep == "conj" for c in children):
        if any(c.dep == "cc" and c.text.lower() in ("or", "nor") for c in children):
            raise Skip("number of an 'or' phrase is unclear")
        return "pl"
    word = head.text.lower()
    if word in ("lot", "lots", "number", "plenty", "majority", "bunch", "couple", "half", "rest", "kind", "sort"):
        raise Skip(f"number of '{head.text} of ...' follows its complement")  # "a lot of books were"
    if word.endswith("ics"):
        raise Skip(f"number of '{head.text}' is unclear")  # "linguistics is", "statistics are"
    if word in PRONOUN_AGREEMENT:
        return PRONOUN_AGREEMENT[word]
    if head.tag == "NNPS":  # "The Beatles are", but "Tesla Motors is", "The United States is"
        raise Skip(f"number of the plural-looking name '{head.text}' is unclear")
    if head.tag == "NNS":
        if not word.endswith("s") and word not in PLURAL_WITHOUT_S:
            raise Skip(f"number of '{head.text}' is unclear (tagged plural)")
        return "pl"
    if head.tag in ("NN", "NNP"):
        return "3s"
    raise Skip(f"number of '{head.text}' is unclear")
