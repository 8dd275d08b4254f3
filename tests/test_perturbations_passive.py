"""Passive voice: the grammar's hand-written tables, settings and independence.

The grammar tables run with ``judged=False`` (no language model: fast and exact). DEVELOPMENT
was written while building the transform; HELD_OUT was written before the transform's first version ran
on it (any output outside its accepted set fails).
The gold set written from grammar references is tests/test_perturbations_passive_gold.py's.
"""

from __future__ import annotations

import pytest

from perturbations.base import apply_edits
from perturbations.passive import AGENT_MIN_LOGPROB, PassiveVoice, expected_agents

DEVELOPMENT = [
    # simple past / present, irregular participles, number agreement with the new subject
    ("The dog bit the man.", "The man was bitten by the dog."),
    ("She wrote the letters yesterday.", "The letters were written yesterday by her."),
    ("Shakespeare wrote Macbeth.", "Macbeth was written by Shakespeare."),
    ("The wind blew the leaves.", "The leaves were blown by the wind."),
    ("The chef cooks the meals every day.", "The meals are cooked every day by the chef."),
    ("They sing the song every morning.", "The song is sung every morning by them."),
    ("The cats chase the mouse.", "The mouse is chased by the cats."),
    ("Many tourists visit the museum.", "The museum is visited by many tourists."),
    ("The farmer feeds the chickens.", "The chickens are fed by the farmer."),
    ("It accepts credit cards.", "Credit cards are accepted by it."),
    ("John and Mary painted the house.", "The house was painted by John and Mary."),
    ("The storm destroyed the houses and the cars.", "The houses and the cars were destroyed by the storm."),
    ("The engineers designed the engine carefully.", "The engine was designed carefully by the engineers."),
    # modals
    ("Lyon will present the results.", "The results will be presented by Lyon."),
    ("You must sign the form.", "The form must be signed by you."),
    ("The jury might reject the appeal.", "The appeal might be rejected by the jury."),
    ("The government may raise taxes.", "Taxes may be raised by the government."),
    ("They can't finish the project on time.", "The project can't be finished on time by them."),
    ("We will soon announce the winners.", "The winners will soon be announced by us."),
    # perfect
    ("The police have arrested the suspect.", "The suspect has been arrested by the police."),
    ("I have read these books.", "These books have been read by me."),
    ("The committee has approved the plan.", "The plan has been approved by the committee."),
    ("The children had broken the window.", "The window had been broken by the children."),
    ("They had chosen the leader.", "The leader had been chosen by them."),
    # progressive
    ("The workers are building the new bridge.", "The new bridge is being built by the workers."),
    ("The students were reading the books.", "The books were being read by the students."),
    ("He is eating the apples.", "The apples are being eaten by him."),
    ("I am writing the letter.", "The letter is being written by me."),
    ("She is teaching me.", "I am being taught by her."),
    ("The manager was not approving the requests.", "The requests were not being approved by the manager."),
    # do-support, negation, adverbs, particles, fronted adjuncts
    ("He didn't eat the cake.", "The cake wasn't eaten by him."),
    ("The board does not support the proposal.", "The proposal is not supported by the board."),
    ("My brother often visits our parents.", "Our parents are often visited by my brother."),
    ("He turned off the light.", "The light was turned off by him."),
    ("She picked the kids up at school.", "The kids were picked up at school by her."),
    ("Yesterday, the police arrested two men in Paris.", "Yesterday, two men were arrested in Paris by the police."),
    ("The dog bit the man. The cat ate the fish.", "The man was bitten by the dog. The fish was eaten by the cat."),
    ("John lay the ball in the box.", "The ball was laid in the box by John."),
    ("Frances hid the presents in the drawer.", "The presents were hidden in the drawer by Frances."),
    ("A large dog chased the small cat.", "The small cat was chased by a large dog."),
    ("Lou put the umbrella in the closet.", "The umbrella was put in the closet by Lou."),
    ("I began the meeting at 4 P.M.", "The meeting was begun at 4 P.M. by me."),
    # shapes the previous rules skipped and the grammar has (Carter & McCarthy 2006, §286; Quirk et al. 1985, ch. 16)
    ("He gave her a book.", "She was given a book by him."),
    ("They elected Graham chairman.", "Graham was elected chairman by them."),
    ("The cat caught a mouse.", "A mouse was caught by the cat."),
    ("Thousands of people attended the concert.", "The concert was attended by thousands of people."),
    ("The hotel does not accept pets.", "Pets are not accepted by the hotel."),
    ("Someone has stolen my bike.", "My bike has been stolen by someone."),
]

HELD_OUT = [
    ("The mechanic repaired my car.", {"My car was repaired by the mechanic."}),
    ("The chef is preparing the dinner.", {"The dinner is being prepared by the chef."}),
    ("A thief stole the paintings last night.",
     {"The paintings were stolen by a thief last night.", "The paintings were stolen last night by a thief."}),
    ("You should check the results.", {"The results should be checked by you."}),
    ("The manager did not sign the contract.", {"The contract was not signed by the manager."}),
    ("He has already paid the bills.", {"The bills have already been paid by him."}),
    ("The company could have avoided the mistake.", {"The mistake could have been avoided by the company."}),
    ("She drove the children to school.",
     {"The children were driven to school by her.", "The children were driven by her to school."}),
    ("The committee will announce the winners tomorrow.",
     {"The winners will be announced by the committee tomorrow.", "The winners will be announced tomorrow by the committee."}),
    ("Lightning struck the old tree.", {"The old tree was struck by lightning."}),
    ("I have never seen this film.", {"This film has never been seen by me."}),
    ("The teachers are grading the exams.", {"The exams are being graded by the teachers."}),
    ("My sister bought these shoes.", {"These shoes were bought by my sister."}),
    ("They built the bridge in 1990.", {"The bridge was built by them in 1990.", "The bridge was built in 1990 by them."}),
    ("The dog has eaten my homework.", {"My homework has been eaten by the dog."}),
    ("We can't change the past.", {"The past can't be changed by us."}),
    ("The waiter brought the menus.", {"The menus were brought by the waiter."}),
]

MUST_SKIP = [
    ("The hotel has free wifi.", "has no passive"),
    ("The box weighs ten pounds.", "has no passive"),
    ("This costs a lot of money.", "has no passive"),
    ("Is X a good restaurant?", "question"),
    ("Does she like the film?", "question"),
    ("What did he buy?", "question"),
    ("Where did you buy that hat?", "question"),
    ("Did you find the keys", "question"),
    ("Tesla Motors is founded by Elon Musk.", "already passive"),
    ("Dogs are allowed.", "already passive"),
    ("The window was broken by the storm.", "already passive"),
    ("X is a cheap restaurant near Y.", "copular"),
    ("Germany is a large country.", "copular"),
    ("She seems happy.", "copular"),
    ("Close the door.", "no subject"),
    ("Please send me the file.", "no subject"),
    ("The baby slept.", "no direct object"),
    ("The train arrived late.", "no direct object"),
    ("The meeting took place in Paris.", "idiom"),
    ("The one with a red cover takes a very long time to read.", "idiom"),
    ("This proved a decisive factor.", "linking verb"),
    ("After reading the pamphlet, Judy threw it into the bin.", "unattached participle"),
    ("David ate mangoes and Raffi should too.", "elliptical"),
    ("That automobile factories abound in Michigan worries me greatly.", "subject"),
    ("the branch dropped its apple free.", "adjective predicate"),
    ("Mary taught linguistics to John.", "unclear"),
    ("John scratched his arm and Mary did too.", "ellipsis"),
    ("Fred gave flowers to his sweetie because Frank had.", "ellipsis"),
    ("The committee hasn't yet made up its mind.", "idiom"),
    ("Paula spanked the naughty child's back.", "possessive"),
    ("That dogs bark annoys people.", "clausal subject"),
    ("It annoys people that dogs bark.", "extraposition"),
    ("Bill ate more peaches than Harry did grapes.", "comparative"),
    ("John told Mary about himself.", "reflexive"),
    ("Bill whistled his way past the house.", "way"),
    ("Don swatted the mosquito with the newspaper.", "may belong to the verb"),
    ("More than three students attended every seminar.", "quantifiers"),
    ("$50 won't even buy a dress.", "money"),
    ("Almost every cat likes mice, for example Felix doesn't.", "ellipsis"),
    ("This theorem will take only five minutes to prove.", "idiom"),
    ("John left singing.", "not a noun"),
    ("The fugitive lay motionless in order to avoid discovery.", "not a noun"),
    ("Sandy had read how many papers?!", "question"),
    ("She has been writing the report.", "perfect progressive"),
    ("She has been reading the book for hours.", "perfect progressive"),
    ("He will be cleaning the room.", "progressive with a modal"),
    ("She ate the cake and drank the milk.", "coordinated verbs"),
    ("He hurt himself.", "reflexive"),
    ("I could not find any hotels.", "negation and a quantified object"),
    ("The hotel seal rock inn accepts credit card -s", "split suffix"),
    ("For cheap , kid friendly pizza try source", "disagree"),
    ("Nobody saw them.", "negative subject"),
    ("Our neighbours have sold their house.", "pronoun would precede its antecedent"),
    ("Inside GMA Network Center lies the mass media industry GMA New Media.", "no sense of 'lie' takes an object"),
    ("In 1989, he helped Brooks and Groening create The Simpsons.", "bare infinitive, no finite clause"),
    ("And you can say it all you want, but it doesn't make it true.", "a pronoun with modifiers (misparse)"),
]


@pytest.fixture(scope="module")
def passive():
    """The grammar alone, every agent kept ("by them", "by me"): the tables test the clause rewrite; the
    default's pronoun handling (drop generic you, skip other pronoun subjects) is PRONOUN_TABLE's."""
    return PassiveVoice(pronoun_agent="keep", judged=False)


@pytest.mark.parametrize(("active", "expected"), DEVELOPMENT, ids=[a for a, _ in DEVELOPMENT])
def test_development_table(passive, active, expected):
    result = passive.apply(active)
    assert result.skipped is None, result.skipped
    (variant,) = result.variants
    assert variant.text == expected
    assert (variant.kind, variant.expectation) == ("passive", "invariant")


@pytest.mark.parametrize(("active", "accepted"), HELD_OUT, ids=[a for a, _ in HELD_OUT])
def test_held_out_table(passive, active, accepted):
    result = passive.apply(active)
    assert result.variants and result.variants[0].text in accepted, result.skipped


@pytest.mark.parametrize(("text", "reason"), MUST_SKIP, ids=[t for t, _ in MUST_SKIP])
def test_must_skip_with_reason(passive, text, reason):
    result = passive.apply(text)
    assert result.variants == ()
    assert result.skipped  # the reason may be another refusal that fires first (``reason`` documents the row)


def test_skip_reasons_name_their_rule(passive):
    """The reason says which rule refused the clause (and, for grammar rules, its source)."""
    assert passive.apply("The hotel has a pool.").skipped == "verb 'has' has no passive (middle verb)"
    assert "Quirk et al. 1985, ch. 8" in passive.apply("Only the manager signed the contract.").skipped
    assert "Quirk et al. 1985, ch. 3" in passive.apply("Every student read two books.").skipped
    assert passive.apply("The dog bit the man.").skipped is None


def test_edits_rebuild_the_variant_and_meta_describes_each_clause(passive):
    from perturbations.base import apply_edits

    text = "Thank you . The Kensington Park Hotel allows dogs . The dog bit the man ."
    variant = passive.apply(text).variants[0]
    assert variant.text == "Thank you . Dogs are allowed by the Kensington Park Hotel . The man was bitten by the dog ."
    assert apply_edits(text, list(variant.edits)) == variant.text
    assert variant.meta["clauses_rewritten"] == 2
    assert [c["tense"] for c in variant.meta["clauses"]] == ["simple present", "simple past"]
    assert {c["shape"] for c in variant.meta["clauses"]} == {"transitive"}
    assert "p_valid" not in variant.meta  # the grammar alone: no judge


def test_clause_facts_name_shape_tense_and_agent(passive):
    facts = passive.apply("The bank sent the customers a letter.").variants[0].meta["clauses"][0]
    assert facts == {"clause": "main", "shape": "ditransitive", "tense": "simple past", "agent": "phrase"}
    facts = PassiveVoice(judged=False).apply("You can reach the hotel by phone.").variants[0].meta["clauses"][0]
    assert (facts["agent"], facts["tense"]) == ("dropped", "modal")
    facts = passive.apply("Officials said the police arrested the suspect.").variants[0].meta["clauses"][0]
    assert facts["clause"] == "ccomp"


CONTENT_POS = {"NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM"}


def lost_content(text: str, variant: str) -> list[str]:
    """Content words of ``text`` whose lemma and form are both missing from ``variant``."""
    from perturbations.language.inflection import lemmas_of
    from rome.core.parsing import get_parser

    original, changed = get_parser().parse([text, variant])
    kept = {t.lemma.lower() for t in changed.tokens} | {t.text.lower() for t in changed.tokens}
    kept |= {lemma for t in changed.tokens for lemma in lemmas_of(t.text)}  # "hated": the tagger's lemma may slip
    return [t.text for t in original.tokens if t.pos in CONTENT_POS and t.dep not in ("aux", "auxpass")
            and t.lemma.lower() not in kept and t.text.lower() not in kept]


def _cola_dev_acceptable() -> list[str]:
    from rome.data.cola import read_cola

    texts = []
    for split in ("in_domain_dev", "out_of_domain_dev"):
        sentences, labels = read_cola(split)
        texts += [t for t, label in zip(sentences, labels) if label == 1]
    return texts


@pytest.mark.slow
def test_every_rewritten_shipped_or_cola_sentence_keeps_its_content_and_gains_be_and_by(passive):
    """Deterministic sweep: all shipped references and CoLA's acceptable dev sentences. Every variant keeps
    each content word, has one more form of "be" per clause and a "by" agent (all agents are kept here)."""
    from rome.core.parsing import get_parser
    from suites.harness.strategies import shipped_references

    texts = list(shipped_references()) + _cola_dev_acceptable()
    get_parser().parse(texts)  # one batched parse; apply() then hits the parser's cache
    pairs = [(t, r.variants[0]) for t in texts if (r := passive.apply(t)).variants]
    assert len(pairs) > 150  # not vacuous: 200 or more rewritten with the grammar of issue 33
    be = ("is", "are", "am", "was", "were", "be", "been", "being", "isn't", "wasn't", "aren't", "weren't")
    for text, variant in pairs:
        assert not lost_content(text, variant.text), (text, variant.text)
        assert " by " in variant.text
        count = sum(w.lower().strip(".,") in be for w in variant.text.split())
        assert count >= sum(w.lower().strip(".,") in be for w in text.split()) + variant.meta["clauses_rewritten"]


#: NL-Augmenter style: pronoun agents (the grammar alone)
PRONOUN_TABLE = [
    ("drop", "You may reach the wharf inn at 4156737411 .", "The wharf inn may be reached at 4156737411 ."),
    ("drop", "You can find buena vista motor inn at 1599 lombard st .",
     "Buena vista motor inn can be found at 1599 lombard st ."),
    ("drop", "They accept credit cards .", None),  # "they" refers to someone: skipped
    ("drop", "I would recommend osha thai", None),  # "would be recommended by me" reads awkwardly
    ("drop", "We serve chinese food .", None),
    ("skip", "You may reach the wharf inn at 4156737411 .", None),
    ("keep", "You may reach the wharf inn at 4156737411 .", "The wharf inn may be reached at 4156737411 by you ."),
    ("keep", "My wife and I bought the house.", "The house was bought by my wife and me."),
    ("drop", "My wife and I bought the house.", "The house was bought by my wife and me."),  # no lone pronoun
    ("drop", "Bar Crudo serves the raw food .", "The raw food is served by Bar Crudo ."),
    ("drop", "The holiday inn golden gateway hotel allows dogs .", None),  # a name the parse splits
    ("drop", "You may reach the harbor court hotel c a kimpton hotel at 4158821300 .", None),
]


@pytest.mark.parametrize("mode,text,expected", PRONOUN_TABLE)
def test_pronoun_agents(mode, text, expected):
    result = PassiveVoice(pronoun_agent=mode, judged=False).apply(text)
    if expected is None:
        assert not result.variants and result.skipped
    else:
        assert result.variants[0].text == expected


def test_settings_are_checked():
    with pytest.raises(ValueError):
        PassiveVoice(pronoun_agent="sometimes")


def test_describe_and_fingerprint_record_the_judge():
    """The grammar alone names no language model; the judged default records the judge's description, and the
    fingerprint that keys cached cases tells the two apart."""
    from perturbations.judged import get_kind_judge
    from suites.harness.spec import perturbation_fingerprint

    grammar = PassiveVoice(judged=False).describe()
    assert grammar["judged"] is False and "judge" not in grammar
    judged = PassiveVoice().describe()
    assert judged["judged"] is True and judged["judge"] == get_kind_judge("passive").describe()
    assert judged["agent_min_logprob"] == AGENT_MIN_LOGPROB
    assert perturbation_fingerprint(PassiveVoice()) != perturbation_fingerprint(PassiveVoice(judged=False))


def test_the_passive_reads_no_metric_model_and_no_corpus():
    """Its only language model is the perturbations' judge: not the context model GRUEN runs on, not a metric's
    encoder, not a corpus."""
    from rome.core import fingerprint

    closure = fingerprint.module_closure(PassiveVoice)
    assert "perturbations.judged" in closure
    assert not any(name.startswith(("rome.data", "rome.metric", "rome.training", "baselines"))
                   for name in closure)
    assert "rome.core.encoder" not in closure


def test_an_agent_the_language_model_does_not_expect_is_refused_and_one_it_expects_is_kept():
    """The passive of a rule reads complete without its agent ("Dogs are not allowed"): a "by" phrase after it
    is refused (the judge is never asked); a founder is the agent the passive announces, and its reading is
    recorded on the clause."""
    passive = PassiveVoice()
    refused = passive.apply("The hotel stratford does not allow dogs .")
    assert not refused.variants and refused.skipped.startswith("the language model does not expect an agent")
    text = "Elon Musk founded Tesla Motors."
    kept, refused_here = expected_agents(text, passive.candidates(text)[1])  # before the judge, which decides next
    assert not refused_here and apply_edits(text, [kept[0][0]]) == "Tesla Motors was founded by Elon Musk."
    assert kept[0][1]["agent_logprob"] >= AGENT_MIN_LOGPROB
    agentless = passive.apply("You can reach the hotel by phone.")  # no agent: nothing to expect
    assert [v.text for v in agentless.variants] in ([], ["The hotel can be reached by phone."])
    assert "agent_logprob" not in (agentless.variants[0].meta["clauses"][0] if agentless.variants else {})
