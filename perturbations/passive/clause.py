"""Which clauses have a passive, from a reference grammar: find one on the parse, or say why not.

A clause has a passive when its verb takes a direct object that can become the subject (Quirk et al.
1985, ch. 3, voice; Huddleston & Pullum 2002, ch. 16): ``subject - verb - object`` becomes
``object - be + participle - by subject``. The shapes the grammar allows are rewritten here: plain
transitives with any tense, aspect and modal, phrasal verbs (the particle stays with the verb),
ditransitives (the indirect object becomes the subject: Carter & McCarthy 2006, §286; Huddleston &
Pullum 2005, ch. 15 §2), objects with a predicative ("elected Graham chairman": Quirk et al. 1985,
ch. 16), in main clauses and in finite subordinate and coordinated clauses with their own subject.

Every other shape is skipped with a reason, each naming its source: verbs without a passive
(:data:`MIDDLE_VERBS`), idioms, clausal objects, reflexives and reciprocals (binding), quantifier and
negation scope, focusing adverbs, ellipsis, questions and imperatives, and the parses the words
contradict (the parse is trusted only where the words agree with it). Whether a rewrite the grammar
allows also reads naturally is not decided here: the judge reads it (:func:`perturbations.passive.judge_best`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rome.core.parsing import ParsedText, Token

#: verbs without a passive (middle verbs: the subject is no agent and the object no patient). Sources:
#: Huddleston & Pullum 2005, ch. 15 §2 (boast, lack, have in its static sense, hold in the sense
#: "contain"); Quirk et al. 1985, ch. 3 (voice: have, lack, resemble, suit, fit, become "befit", cost,
#: weigh, equal, mean, marry in its reciprocal sense, whose passive means "officiate"). "contain",
#: "include" and "comprise" are the "contain" sense of hold. Measure verbs (cost, weigh, measure, last,
#: total, number) take a quantity, not a patient.
MIDDLE_VERBS = frozenset({
    "have", "lack", "boast", "resemble", "suit", "fit", "become", "cost", "weigh", "equal", "mean",
    "marry", "contain", "include", "comprise", "measure", "last", "total", "number", "let", "get",
})
#: verbs whose sense with a quantity object is "hold, have room for" ("The jug holds three litres", "The
#: hall seats 500", "The trip took three hours"): Huddleston & Pullum 2005, ch. 15 §2 (hold = contain)
CAPACITY_VERBS = frozenset({"hold", "seat", "sleep", "accommodate", "take", "fit", "serve"})
#: verbs that are also linking verbs (copulas) before a noun phrase ("This proved a decisive factor",
#: "The twins remain best friends"): their noun is a predicative, not an object (Quirk et al. 1985, ch. 16)
COPULA_LIKE = frozenset({"prove", "remain", "constitute", "sound", "seem", "appear", "stay"})
#: verb + noun idioms whose noun names no participant ("take place", "make sense", "pay attention");
#: WordNet's verb lemmas (take_place, make_sense) add more (:func:`verb_object_idiom`)
IDIOMS = {
    "take": {"place", "part", "time", "care", "advantage", "turn", "turns", "note", "notice", "effect", "hold",
             "second", "minute", "hour", "day", "week", "month", "year", "while", "age", "walk", "look",
             "break", "rest", "shower", "bath", "breath", "seat", "nap", "chance", "risk", "step", "steps"},
    "make": {"sense", "sure", "way", "progress", "use", "fun", "room", "headway", "mind", "love", "friends"},
    "change": {"mind"}, "lose": {"sight", "track", "touch", "heart", "weight"}, "keep": {"track", "pace", "touch"},
    "pay": {"attention", "heed", "tribute", "visit"}, "play": {"role", "part"}, "catch": {"fire", "sight"},
    "give": {"way", "rise", "birth"}, "do": {"justice", "business"}, "hold": {"breath"},
    "shake": {"hands"}, "draw": {"attention"}, "raise": {"eyebrows"}, "run": {"risk"},
}
#: verbs with an indirect object or a "to"/"for" complement (Carter & McCarthy 2006, §286): spaCy may read
#: "throws artists curve balls" as one noun phrase, which the rewrite must not move as one
DITRANSITIVE = frozenset({"give", "send", "hand", "lend", "show", "tell", "offer", "bring", "teach", "pay",
                          "owe", "sell", "award", "grant", "promise", "throw", "pass", "feed", "buy", "leave",
                          "cook", "bake", "envy", "find", "build", "fetch", "pour", "save", "spare", "write",
                          "allow", "deny", "ask", "bet", "wish", "serve", "charge", "fine", "forgive", "order",
                          "read", "refuse", "reserve", "get", "make", "email", "mail", "text"})
#: complex-transitive verbs: object + object predicative ("elected Graham chairman"), which spaCy may read as
#: one noun phrase ("Graham chairman"): Quirk et al. 1985, ch. 16
COMPLEX_TRANSITIVE = frozenset({"elect", "appoint", "name", "crown", "declare", "dub", "vote", "nominate",
                                "make", "call", "label", "consider", "deem", "proclaim", "title"})
#: verbs with an object and a to-infinitive whose passive is usual ("The committee asked the minister to
#: resign" -> "The minister was asked by the committee to resign"); verbs of wanting and liking (want, like,
#: prefer, need, hate) have none ("*He was wanted to leave"): Quirk et al. 1985, ch. 16
OBJECT_INFINITIVE_VERBS = frozenset({
    "ask", "tell", "order", "force", "allow", "permit", "persuade", "urge", "encourage", "advise", "require",
    "invite", "expect", "oblige", "compel", "instruct", "warn", "remind", "teach", "enable", "authorize",
    "authorise", "pressure", "forbid", "convince", "empower", "entitle", "inspire", "prompt", "lead", "train",
    "believe", "consider", "appoint", "elect", "choose", "select", "call", "help", "recruit", "hire",
})
#: verbs whose place complement is obligatory ("put the book on the table"): it stays next to the verb,
#: before the agent (Quirk et al. 1985, ch. 16, complex-transitive complementation)
PLACE_COMPLEMENT_VERBS = frozenset({"put", "place", "lay", "set", "position", "store", "stick", "hang"})
#: prepositions of an obligatory place or recipient complement kept next to the verb
COMPLEMENT_PREPOSITIONS = frozenset({"on", "in", "into", "onto", "under", "inside", "to", "at", "beside"})
#: plural nouns without -s that are never singular (other -s-less "NNS" tags are tagger slips: "the yolk")
PLURAL_WITHOUT_S = frozenset({"people", "police", "cattle", "clergy", "livestock", "personnel", "children",
                              "men", "women", "feet", "teeth", "mice", "geese", "data", "criteria", "staff"})
#: quantity nouns whose number follows their "of" complement ("a lot of books are", "the rest of the team
#: is"): notional concord, Quirk et al. 1985, ch. 10
QUANTITY_NOUNS = frozenset({"lot", "lots", "number", "plenty", "majority", "bunch", "couple", "half", "rest",
                            "kind", "sort", "percent", "%", "third", "quarter", "minority", "part", "some",
                            "all", "most", "none", "any", "many", "few", "several", "both", "each", "one"})
#: quantifiers whose relative scope can change when subject and object swap ("Every student read two
#: books" is not "Two books were read by every student": Quirk et al. 1985, ch. 3, voice)
QUANTIFIERS = frozenset({"every", "each", "all", "some", "no", "most", "many", "few", "several", "any", "both",
                         "everyone", "everybody", "someone", "somebody", "nobody", "everything", "something",
                         "nothing", "anyone", "anybody", "anything", "none", "neither", "either"})
#: negative words: a negative subject's scope reaches to the end of its clause, and as an agent at the end
#: of the clause it covers nothing (Quirk et al. 1985, ch. 10, scope of negation)
NEGATIVE = frozenset({"no", "none", "nobody", "nothing", "neither", "nor", "never", "noone"})
#: focusing adverbs ("only", "even", "also"): what they focus depends on where they stand, so moving the
#: phrases around them changes the focus (Quirk et al. 1985, ch. 8, focusing subjuncts)
FOCUSING = frozenset({"only", "even", "also", "merely", "simply", "solely", "alone", "especially", "particularly",
                      "mainly", "mostly", "chiefly", "primarily", "purely", "exactly", "precisely", "just",
                      "too", "either", "likewise", "equally", "largely", "notably"})
REFLEXIVE = frozenset({"myself", "yourself", "himself", "herself", "itself", "ourselves", "yourselves",
                       "themselves", "oneself"})
WH_TAGS = ("WDT", "WP", "WP$", "WRB")
BLOCKING_DEPS = {
    "nsubjpass": "already passive", "auxpass": "already passive", "csubjpass": "already passive",
    "agent": "already passive", "expl": "existential 'there' clause",
    "ccomp": "clausal complement (a clause cannot become the subject: Swan 2005, 'passives')",
    "xcomp": "infinitival or participial complement (the verb has no passive with it)", "attr": "copular clause", "acomp": "copular clause",
    "csubj": "clausal subject", "dep": "unclear attachment", "appos": "unclear attachment",
    "meta": "unclear attachment", "parataxis": "a second clause without a conjunction",
}
#: third-person pronouns by number: a later one that agrees with both the old subject and the old object
#: could change its antecedent when the object becomes the subject (the subject is the preferred antecedent:
#: centering theory, Grosz, Joshi & Weinstein 1995)
SINGULAR_PRONOUNS = frozenset({"he", "him", "his", "she", "her", "hers", "it", "its"})
PLURAL_PRONOUNS = frozenset({"they", "them", "their", "theirs"})
THIRD_PERSON = SINGULAR_PRONOUNS | PLURAL_PRONOUNS
#: conjunctions that introduce a finite clause whose own subject, verb and object can be rewritten as a
#: whole without touching the conjunction ("because the storm flooded the stadium")
SUBORDINATORS = frozenset({"that", "because", "when", "whenever", "where", "after", "before", "although",
                           "though", "while", "since", "if", "until", "once", "whereas", "as", "unless"})
FLOATING_QUANTIFIERS = frozenset({"both", "all", "each"})
#: parts of speech a preposition never has: a "prep" dependency on one of them is a misparse, usually of a
#: name the parse split ("reach the harbor court hotel c a kimpton hotel": "c" read as a preposition)
NOT_PREPOSITIONS = frozenset({"NOUN", "PROPN", "PRON", "DET", "NUM", "X"})
#: person and number of pronouns: "1s", "3s", "pl" ("you" takes plural verb forms)
PRONOUN_AGREEMENT = {
    "i": "1s", "me": "1s", "he": "3s", "him": "3s", "she": "3s", "her": "3s", "it": "3s",
    "we": "pl", "us": "pl", "they": "pl", "them": "pl", "you": "pl",
    "this": "3s", "that": "3s", "these": "pl", "those": "pl", "one": "3s",
    "everything": "3s", "something": "3s", "anything": "3s",
    "everyone": "3s", "someone": "3s", "everybody": "3s", "somebody": "3s", "anyone": "3s",
}
#: determiners that fix the number of their noun ("a species", "these data")
SINGULAR_DETERMINERS = frozenset({"a", "an", "this", "that", "every", "each", "another", "one", "either", "neither"})
PLURAL_DETERMINERS = frozenset({"these", "those", "many", "several", "few", "both", "two", "three", "four", "five"})
#: entity types whose plural-looking name is one thing ("Tesla Motors is", "The United States is")
SINGULAR_NAME_TYPES = frozenset({"ORG", "GPE", "LOC", "FAC", "PRODUCT", "WORK_OF_ART", "LAW"})


class Skip(Exception):
    """A clause the passive will not rewrite; the message is the reason reported."""


@dataclass(frozen=True)
class Clause:
    """The parts of one active clause that the passive rewrite moves.

    ``promoted`` is the phrase that becomes the subject (the direct object, or the indirect object of a
    ditransitive); ``kept`` are the phrases that stay right after the participle, before the agent (the
    direct object of a ditransitive, an object predicative, an obligatory place or "to" complement)."""

    subject: tuple[int, int]  # token span [first, last]
    promoted: tuple[int, int]
    promoted_head: int
    verb: Token
    auxiliaries: tuple[Token, ...]
    pre_verb: tuple[Token, ...]  # negation and adverbs between subject and verb
    particle: Token | None
    kept: tuple[tuple[int, int], ...]
    last: int  # last token the rewrite replaces
    sentence: tuple[int, int]
    shape: str  # "transitive", "phrasal", "ditransitive", "predicative", "complement"
    by_phrase_after: bool = False  # a "by" phrase follows ("reach the hotel by phone"): no agent may follow it


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


def sentence_of(parsed: ParsedText, i: int) -> tuple[int, int]:
    """First and last token of the sentence holding token ``i`` (its root's subtree)."""
    tok = parsed.tokens[i]
    while tok.head != tok.i:
        tok = parsed.tokens[tok.head]
    found = members(parsed, tok.i)
    return min(found), max(found)


def verb_lemma(verb: Token) -> str:
    """spaCy reads transitive "lay"/"laid" as forms of "lie"; with an object it is "lay"."""
    return "lay" if verb.text.lower() in ("lay", "lays", "laid", "laying") else verb.lemma.lower()


def find_clause(parsed: ParsedText, root: Token) -> Clause:
    """Check that ``root`` heads a clause with a passive, and collect its parts (or raise :class:`Skip`)."""
    found = members(parsed, root.i)
    sentence = sentence_of(parsed, root.i)
    if any("?" in parsed.tokens[i].text for i in range(sentence[0], sentence[1] + 1)):
        raise Skip("question")  # Quirk et al. 1985, ch. 11: the passive of a question moves its wh-word
    if root.lemma.lower() == "be" or root.pos == "AUX":
        raise Skip("copular clause")
    if root.pos != "VERB" or not root.tag.startswith("VB"):
        raise Skip("no finite main verb")
    children = parsed.children(root.i)
    for child in children:
        if child.dep in BLOCKING_DEPS and not object_infinitive(parsed, root, child):
            raise Skip(BLOCKING_DEPS[child.dep])
        if child.dep == "conj" and child.pos in ("VERB", "AUX") and not has_own_subject(parsed, child):
            raise Skip("coordinated verbs share the subject")  # "ate the cake and drank the milk"
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
    datives = [c for c in children if c.dep == "dative"]
    indirect = next((d for d in datives if d.pos in ("NOUN", "PROPN", "PRON") and d.i < obj.i), None)
    check_verb(parsed, root, obj)
    subj_span, obj_span = subtree_span(parsed, subject.i), subtree_span(parsed, obj.i)
    split = complement_inside_object(parsed, root, obj, obj_span)
    if split is not None:
        obj_span, inner_complement = split
    else:
        inner_complement = None
    check_spans(parsed, subj_span, obj_span, children)
    check_context(parsed, root, subject, subj_span, sentence, found)
    auxiliaries = tuple(c for c in children if c.dep == "aux")
    particle = next((c for c in children if c.dep == "prt"), None)
    if particle is not None and not phrasal_verb_known(root, particle):
        raise Skip(f"'{root.text} {particle.text}' is no phrasal verb WordNet knows (possible misparse)")
    if any(c.dep in ("advcl", "xcomp") and c.i > obj.i and not any(k.dep.startswith("nsubj") for k in parsed.children(c.i))
           and not infinitive(parsed, c) for c in children):
        raise Skip("participle clause after the object (its implied subject would change)")
    shape = "phrasal" if particle is not None else "transitive"
    promoted, promoted_head, kept = obj_span, obj.i, []
    if indirect is not None:  # "sent the customers a letter" -> "the customers were sent a letter"
        promoted, promoted_head = subtree_span(parsed, indirect.i), indirect.i
        check_object(parsed, root, indirect, subject, promoted)
        if promoted[1] + 1 != obj_span[0]:
            raise Skip("material between the two objects")
        kept.append(obj_span)
        shape = "ditransitive"
    elif datives:
        raise Skip("unclear indirect object")
    check_object(parsed, root, obj, subject, obj_span)
    pre_verb = check_order(parsed, root, subj_span, promoted, auxiliaries, particle, obj_span)
    last = obj_span[1]
    if particle is not None and particle.i == last + 1:
        last += 1
    kept_after = inner_complement or complement_after(parsed, root, last)
    if kept_after is not None:
        kept.append(kept_after)
        shape = "predicative" if parsed.tokens[kept_after[0]].dep == "oprd" else "complement"
        last = kept_after[1]
    check_agreement(parsed, subject, auxiliaries[0] if auxiliaries else root)
    by_after = any(c.dep in ("prep", "agent") and c.text.lower() == "by" and c.i > last for c in children)
    return Clause(subj_span, promoted, promoted_head, root, auxiliaries, pre_verb, particle, tuple(kept), last,
                  sentence, shape, by_after)


def infinitive(parsed: ParsedText, verb: Token) -> bool:
    """Whether ``verb`` heads a to-infinitive: a purpose clause after the object keeps its implied subject in
    the passive, the agent ("The ship was sunk to collect the insurance"), and so does the infinitive of
    :data:`OBJECT_INFINITIVE_VERBS` (Quirk et al. 1985, ch. 15-16)."""
    return verb.tag == "VB" and any(c.dep == "aux" and c.text.lower() == "to" for c in parsed.children(verb.i))


def object_infinitive(parsed: ParsedText, verb: Token, child: Token) -> bool:
    """Whether ``child`` is the to-infinitive after the object of a verb whose passive keeps it ("asked the
    minister to resign")."""
    return child.dep == "xcomp" and verb_lemma(verb) in OBJECT_INFINITIVE_VERBS and infinitive(parsed, child) and any(
        c.dep == "dobj" and c.i < child.i for c in parsed.children(verb.i))


def has_own_subject(parsed: ParsedText, verb: Token) -> bool:
    """Whether a coordinated verb has a subject of its own (a noun phrase, not a misparsed adjective)."""
    return any(c.dep in ("nsubj", "nsubjpass", "expl") and c.pos in ("NOUN", "PROPN", "PRON", "NUM", "DET")
               for c in parsed.children(verb.i))


def complement_inside_object(parsed: ParsedText, verb: Token, obj: Token,
                             span: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The verb's complement that the parse put inside the object: the "to" phrase of a ditransitive verb
    ("gave [the key to Anna]" is "gave the key | to Anna") or the predicative of a complex-transitive verb
    ("elected [Graham chairman]" is "elected Graham | chairman"): (the object's span, the complement's)."""
    lemma = verb_lemma(verb)
    kids = parsed.children(obj.i)
    last_kid = max(kids, key=lambda t: t.i) if kids else None
    if lemma in DITRANSITIVE | PLACE_COMPLEMENT_VERBS and last_kid is not None and last_kid.i > obj.i \
            and last_kid.dep == "prep" and last_kid.text.lower() in {"to"} | (
                COMPLEMENT_PREPOSITIONS if lemma in PLACE_COMPLEMENT_VERBS else set()):
        inner = subtree_span(parsed, last_kid.i)
        if inner[1] == span[1] and inner[0] > obj.i:
            return (span[0], inner[0] - 1), inner
    if lemma in COMPLEX_TRANSITIVE and obj.tag == "NN" and not any(c.dep in ("det", "poss", "amod") for c in kids):
        names = [c for c in kids if c.dep == "compound" and c.i < obj.i]
        if names and all(c.pos in ("PROPN", "PRON") for c in names) and span[1] == obj.i and obj.i - 1 == max(
                c.i for c in names) and span[0] == min(min(members(parsed, c.i)) for c in names):
            return (span[0], obj.i - 1), (obj.i, obj.i)
    return None


def complement_after(parsed: ParsedText, verb: Token, last: int) -> tuple[int, int] | None:
    """A phrase right after the object that belongs next to the verb and before the agent: an object
    predicative ("elected Graham chairman") or the place or recipient complement of a verb that needs one
    ("put the book on the table", "gave the key to Anna"): Quirk et al. 1985, ch. 16."""
    nxt = next((c for c in parsed.children(verb.i) if min(members(parsed, c.i)) == last + 1), None)
    if nxt is None:
        return None
    if (nxt.dep == "oprd" or verb_lemma(verb) in COMPLEX_TRANSITIVE and nxt.dep in ("npadvmod", "attr", "dobj")
            ) and nxt.pos in ("NOUN", "PROPN", "ADJ"):
        span = subtree_span(parsed, nxt.i)
        if any(parsed.tokens[i].pos in ("VERB", "AUX", "PUNCT") for i in range(span[0], span[1] + 1)):
            raise Skip("object predicative with a clause or punctuation")
        return span
    lemma = verb_lemma(verb)
    if nxt.dep in ("prep", "dative") and nxt.text.lower() in COMPLEMENT_PREPOSITIONS and (
            lemma in PLACE_COMPLEMENT_VERBS or (lemma in DITRANSITIVE and nxt.text.lower() == "to")):
        span = subtree_span(parsed, nxt.i)
        if any(parsed.tokens[i].pos in ("VERB", "AUX", "PUNCT") for i in range(span[0], span[1] + 1)):
            return None
        return span
    return None


def phrasal_verb_known(verb: Token, particle: Token) -> bool:
    """Whether WordNet lists verb + particle as a verb ("turn_off"); spaCy reads some prepositions of
    intransitive verbs as particles ("coughed out the window")."""
    from perturbations.language.senses import wordnet

    return bool(wordnet().synsets(f"{verb_lemma(verb)}_{particle.text.lower()}", pos="v"))


def check_verb(parsed: ParsedText, verb: Token, obj: Token) -> None:
    from lemminflect import getAllInflections

    lemma = verb_lemma(verb)
    if lemma in MIDDLE_VERBS:
        raise Skip(f"verb '{verb.text}' has no passive (middle verb)")
    if lemma in CAPACITY_VERBS and is_quantity(parsed, obj):
        raise Skip(f"'{verb.text}' with a quantity means 'hold, have room for' (no passive)")
    forms = {f for group in getAllInflections(lemma, upos="VERB").values() for f in group}
    if verb.text.lower() not in forms:  # misparses: "gluten free food" has no verb "gluten"
        raise Skip(f"'{verb.text}' is not a known form of the verb '{lemma}'")
    if not transitive_in_wordnet(lemma):
        raise Skip(f"WordNet gives '{lemma}' no used sense with an object (an intransitive verb: misparse)")
    if obj.lemma.lower() in IDIOMS.get(lemma, ()) or obj.text.lower() in IDIOMS.get(lemma, ()):
        raise Skip(f"verb-noun idiom '{verb.text} ... {obj.text}'")
    if verb_object_idiom(lemma, obj.lemma.lower()):
        raise Skip(f"WordNet lists '{lemma} {obj.lemma.lower()}' as one verb (an idiom, no patient)")
    if lemma in COPULA_LIKE:
        raise Skip(f"'{verb.text}' is a linking verb here (its noun is a predicative)")


#: a verb is read as transitive when its senses with an object (WordNet's verb frames) carry at least this
#: share of its tagged uses (SemCor counts; with fewer than :data:`MIN_COUNTED_USES`, any such sense will do)
MIN_TRANSITIVE_SHARE = 0.05
MIN_COUNTED_USES = 20


def transitive_in_wordnet(lemma: str) -> bool:
    """Whether WordNet's verb frames give ``lemma`` a used sense with an object ("Somebody ----s something");
    a verb WordNet does not list passes. "Inside the centre lies the industry" is parsed with "lies" taking
    an object; 2 % of the tagged uses of "lie" have one."""
    from perturbations.language.senses import sense_counts, total_count, wordnet

    if not wordnet().synsets(lemma, pos="v"):
        return True
    with_object = sense_counts(lemma, "v", "object")
    total = total_count(lemma, "v")
    if total < MIN_COUNTED_USES:
        return bool(with_object)
    return sum(c for _, c in with_object) >= MIN_TRANSITIVE_SHARE * total


def is_quantity(parsed: ParsedText, head: Token) -> bool:
    """A noun phrase that states an amount: a number, or a noun counted or measured by one ("three litres")."""
    return head.tag == "CD" or head.ent_type in ("PERCENT", "MONEY", "QUANTITY", "CARDINAL", "TIME") or any(
        c.dep == "nummod" for c in parsed.children(head.i))


def verb_object_idiom(verb: str, noun: str) -> bool:
    """Whether WordNet lists verb + noun as one verb lemma ("take_office", "take_place", "pay_attention",
    "make_sense"): the noun of such an idiom names no participant."""
    from perturbations.language.senses import wordnet

    return noun.isalpha() and bool(wordnet().synsets(f"{verb}_{noun}", pos="v"))


def check_object(parsed: ParsedText, verb: Token, obj: Token, subject: Token, span: tuple[int, int]) -> None:
    from lemminflect import getAllLemmas

    word = obj.text.lower()
    if word in REFLEXIVE or word in ("other", "another"):
        raise Skip("reflexive or reciprocal object (its binder would follow it: Quirk et al. 1985, ch. 6)")
    inside = parsed.tokens[span[0] : span[1] + 1]
    text = " ".join(t.text.lower() for t in inside)
    if "each other" in text or "one another" in text:
        raise Skip("reciprocal inside the object (its binder would follow it)")
    if verb_lemma(verb) in ("like", "love", "prefer", "hate") and any(
            c.dep == "aux" and c.text.lower() in ("would", "'d") for c in parsed.children(verb.i)):
        raise Skip("'would like' is a modal idiom (want), not a verb of liking")
    if obj.pos not in ("NOUN", "PROPN", "PRON", "NUM"):
        raise Skip(f"object '{obj.text}' is not a noun phrase")
    if obj.tag == "PRP" and any(t.i != obj.i and t.dep not in ("conj", "cc") and t.head == obj.i for t in inside):
        raise Skip("a personal pronoun with modifiers (misparse)")  # "say it all you want"
    children = parsed.children(obj.i)
    bare = not any(c.dep in ("det", "poss", "amod", "nummod", "compound") for c in children)
    if obj.tag in ("NN", "NNS") and bare and "NOUN" not in getAllLemmas(word) and obj.text.islower():
        raise Skip(f"object '{obj.text}' is not a noun")  # "lay motionless", "left singing"
    if verb_lemma(verb) in DITRANSITIVE and obj.pos != "PROPN" and any(
            c.dep == "compound" and (c.pos in ("PROPN", "PRON") or c.tag == "NNS") for c in children):
        # "throws artists curve balls", "sent Mary letters"; a name ("buena vista motor inn") is one object
        raise Skip("possible two objects read as one noun phrase")
    if word == "way" and any(c.dep == "poss" for c in children):
        raise Skip("'way' construction")  # "whistled his way home"
    if any(t.dep == "prep" and t.head == obj.i and t.text.lower() != "of" for t in inside):
        raise Skip("a prepositional phrase on the object may belong to the verb (its attachment would change)")
    if any(t.dep == "acl" and t.tag == "VBN" and not any(c.dep in ("agent", "prep") for c in parsed.children(t.i))
           for t in inside):
        raise Skip("participle after the object (possible object predicate)")  # "keep copies hidden"
    if inside[-1].tag == "POS":
        raise Skip("possessive at the end of the object")  # "spanked the child's back" misparsed
    if inside[-1].pos == "ADV":
        raise Skip("adverb at the end of the object")  # "mixed the eggs and the cream together"
    if any(t.pos in ("VERB", "AUX") and t.dep in ("acl", "xcomp", "advcl", "ccomp") and not (
            t.dep == "acl" and infinitive(parsed, t)) for t in inside):
        raise Skip("participle clause inside the object (its attachment is unsure)")
    check_bound_pronoun(parsed, [t for t in inside if t.i != obj.i and not (t.dep == "conj" and t.tag == "PRP")],
                        subject)


def number_of(parsed: ParsedText, head: Token) -> str | None:
    """"sg", "pl", "name" (a singular name: "it", "they", "he" or "she" may refer to it) or None (unknown)
    for the noun phrase headed by ``head``, for pronoun reference."""
    try:
        person = agreement(parsed, head)
    except Skip:
        return None
    if person == "pl":
        return "pl"
    return "name" if head.pos == "PROPN" or head.ent_type in ("PERSON", "ORG", "NORP", "GPE") else "sg"


def agrees(pronoun: str, number: str | None) -> bool:
    """Whether a third-person pronoun can refer to a phrase of ``number`` (None or a name: it may)."""
    if number in (None, "name"):
        return True
    return (pronoun in PLURAL_PRONOUNS) == (number == "pl")


def check_bound_pronoun(parsed: ParsedText, inside: list[Token], subject: Token) -> None:
    """A pronoun inside the object that can refer to the subject would come before it ("The company sold
    its shares" -/-> "Its shares were sold by the company"): a pronoun precedes its antecedent only in
    subordinate positions (Quirk et al. 1985, ch. 6), so such clauses are skipped. Pronouns that cannot
    refer to the subject (another number) stay ("The police arrested his brother")."""
    number = number_of(parsed, subject)
    for tok in inside:
        if tok.tag in ("PRP", "PRP$") and tok.text.lower() in THIRD_PERSON and agrees(tok.text.lower(), number):
            raise Skip("pronoun inside the object could refer to the subject (it would precede its antecedent)")


def check_spans(parsed: ParsedText, subj: tuple[int, int], obj: tuple[int, int], verb_children: list[Token]) -> None:
    """Refuse what the moved phrases would break: wh-words, scope of quantifiers and negation, focus."""
    tokens = parsed.tokens
    if tokens[subj[0]].tag in WH_TAGS or tokens[obj[0]].tag in WH_TAGS:
        raise Skip("question or relative clause")
    if tokens[obj[1]].pos == "PUNCT" or tokens[subj[1]].pos == "PUNCT":
        raise Skip("phrase ends in punctuation (misparse)")
    if tokens[subj[1]].text.lower() in FLOATING_QUANTIFIERS:
        raise Skip("floating quantifier after the subject")
    subj_words = {t.text.lower() for t in tokens[subj[0] : subj[1] + 1]}
    obj_words = {t.text.lower() for t in tokens[obj[0] : obj[1] + 1]}
    counted = {"#"}
    subj_words |= {"#" for t in tokens[subj[0] : subj[1] + 1] if t.tag == "CD"}
    obj_words |= {"#" for t in tokens[obj[0] : obj[1] + 1] if t.tag == "CD"}
    if subj_words & NEGATIVE:
        raise Skip("negative subject (as an agent the negation's scope would change: Quirk et al. 1985, ch. 10)")
    if subj_words & (QUANTIFIERS | counted) and obj_words & (QUANTIFIERS | counted):
        raise Skip("two quantifiers (their scope could change: Quirk et al. 1985, ch. 3)")
    negated = any(c.dep == "neg" for c in verb_children)
    if negated and obj_words & (QUANTIFIERS | {"a", "an"} | counted):
        raise Skip("negation and a quantified object (their scope could change)")
    if (subj_words | obj_words) & FOCUSING:
        raise Skip("focusing adverb in a moved phrase (its focus would change: Quirk et al. 1985, ch. 8)")
    if any(t.ent_type == "MONEY" for t in tokens[subj[0] : subj[1] + 1]):
        raise Skip("an amount of money as subject is no agent")  # "$50 won't buy a dress"


def check_context(parsed: ParsedText, verb: Token, subject: Token, subj: tuple[int, int],
                  sentence: tuple[int, int], clause: set[int]) -> None:
    """The rest of the sentence must not depend on which phrase is the subject."""
    span = parsed.tokens[sentence[0] : sentence[1] + 1]
    for tok in span:
        if len(tok.text) > 1 and tok.text[0] == "-" and tok.text[1:].isalpha():
            raise Skip(f"split suffix '{tok.text}' (number unknown)")  # the dialogue data's "hotel -s"
    if any(t.text.lower() in REFLEXIVE for t in span):
        raise Skip("reflexive pronoun (its binder would change)")
    if any(parsed.tokens[i].text.lower() == "than" and i > verb.i for i in clause):
        raise Skip("comparative clause (its ellipsis follows the active's order)")
    if any(t.pos == "AUX" and t.dep not in ("aux", "auxpass") and t.lemma.lower() != "be" for t in span):
        raise Skip("elliptical auxiliary ('Raffi should too': Quirk et al. 1985, ch. 12)")
    if any(c.pos == "ADJ" and c.i > verb.i and c.dep != "oprd" for c in parsed.children(verb.i)):
        raise Skip("adjective predicate after the object")  # "dropped its apple free"
    for tok in span:
        nxt = parsed.tokens[tok.i + 1] if tok.i + 1 < len(parsed.tokens) else None
        if nxt is not None and nxt.text.lower() == "n't":
            nxt = parsed.tokens[nxt.i + 1] if nxt.i + 1 < len(parsed.tokens) else None
        own_auxiliary = tok.dep == "aux" and tok.head == verb.i
        ends_clause = nxt is None or nxt.pos == "PUNCT" or nxt.text.lower() in ("too", "so", "either")
        if tok.lemma.lower() in ("do", "have") and not own_auxiliary and tok.i != verb.i and ends_clause:
            raise Skip("ellipsis ('... and Raffi did too': Quirk et al. 1985, ch. 12)")
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
            raise Skip("fronted clause whose implied subject would change (unattached participle)")


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


def check_order(parsed: ParsedText, verb: Token, subj: tuple[int, int], promoted: tuple[int, int],
                auxiliaries: tuple[Token, ...], particle: Token | None, obj: tuple[int, int]) -> tuple[Token, ...]:
    """Subject, auxiliaries/adverbs, verb, (particle), object(s), in this order and nothing else in between."""
    if not subj[1] < verb.i < promoted[0]:
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
            if tok.text.lower() in FOCUSING and not (tok.text.lower() == "just" and any(
                    a.lemma.lower() == "have" for a in auxiliaries)):
                raise Skip(f"focusing adverb '{tok.text}' (its focus would change: Quirk et al. 1985, ch. 8)")
            pre_verb.append(tok)
            continue
        raise Skip("material between subject and verb")
    if any(t is not particle for t in parsed.tokens[verb.i + 1 : promoted[0]]):
        raise Skip("material between verb and object")
    if particle is not None and particle.i not in (verb.i + 1, obj[1] + 1):
        raise Skip("particle far from its verb")
    after = [c for c in parsed.children(verb.i) if c.i > obj[1]]
    clauses = [c for c in after if c.dep == "conj" and has_own_subject(parsed, c)]
    if any(c.dep == "conj" and c not in clauses or c.dep == "cc" and not clauses for c in after):
        raise Skip("coordination after the object")  # "ate the cake and drank the milk"
    if any(c.dep == "prep" and c.pos in NOT_PREPOSITIONS for c in after):
        raise Skip("a noun or name parsed as a preposition after the object (misparse)")  # "... hotel c a ..."
    return tuple(pre_verb)


def agreement(parsed: ParsedText, head: Token) -> str:
    """Person and number of a noun phrase headed by ``head``: "1s", "3s" or "pl" (subject-verb concord,
    Quirk et al. 1985, ch. 10)."""
    children = parsed.children(head.i)
    if any(c.dep == "conj" for c in children):
        if any(c.dep == "cc" and c.text.lower() in ("or", "nor") for c in children):
            raise Skip("number of an 'or' phrase is unclear")
        return "pl"
    word = head.text.lower()
    if word in QUANTITY_NOUNS:
        of = next((c for c in children if c.dep == "prep" and c.text.lower() == "of"), None)
        complement = next((c for c in parsed.children(of.i) if c.dep == "pobj"), None) if of else None
        if complement is not None:
            return agreement(parsed, complement)  # notional concord: "a lot of books are"
    if word in PRONOUN_AGREEMENT:
        return PRONOUN_AGREEMENT[word]
    determiners = {c.text.lower() for c in children if c.dep in ("det", "nummod")}
    if determiners & SINGULAR_DETERMINERS:
        return "3s"  # "a new species has", "this series is"
    if determiners & PLURAL_DETERMINERS:
        return "pl"
    if word.endswith("ics") and head.tag != "NNP" and not plural_of_a_noun(word):
        raise Skip(f"number of '{head.text}' is unclear")  # "linguistics is", "statistics are"
    if head.tag == "NNPS":
        return name_number(parsed, head)
    if head.tag == "NNS":
        if not word.endswith("s") and word not in PLURAL_WITHOUT_S:
            raise Skip(f"number of '{head.text}' is unclear (tagged plural)")
        return "pl"
    if head.tag in ("NN", "NNP") or head.pos == "PROPN":
        if word in PLURAL_WITHOUT_S:
            return "pl"
        return "3s"
    if head.tag == "CD":
        return "3s" if word in ("one", "1") else "pl"
    raise Skip(f"number of '{head.text}' is unclear")


def plural_of_a_noun(word: str) -> bool:
    """Whether lemminflect reads ``word`` only as the plural of another noun ("critics", not "politics")."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word).get("NOUN", ())
    return bool(lemmas) and word not in lemmas


def name_number(parsed: ParsedText, head: Token) -> str:
    """A name with a plural-looking head: one organisation or place ("Tesla Motors is", "General Motors
    is", "the United States is"), but a "the" + plural name of a group or an event is plural ("the Beatles
    are", "the Olympic Games are"): concord with plural-form names, Quirk et al. 1985, ch. 10."""
    children = parsed.children(head.i)
    has_the = any(c.dep == "det" and c.text.lower() == "the" for c in children)
    if head.ent_type in ("GPE", "LOC"):
        return "3s"
    if not has_the and any(c.dep == "compound" and c.pos == "PROPN" for c in children):
        return "3s"
    if has_the:
        return "pl"
    if head.ent_type in SINGULAR_NAME_TYPES:
        return "3s"
    raise Skip(f"number of the plural-looking name '{head.text}' is unclear")
