"""One word changed, meaning changed: RoMe must prefer the MT to it (tense, degree, number).

Triples (reference, MT, MT with one word changed) written by hand on 2026-11-24 before any metric
scored them. Tense: seven MT sentences of DEMETR's ``minor_id28_final_punc_removed`` (items 88,
204, 233, 552, 610, 842, 871) re-inflected by hand, three of my own; degree, noun number and
written-out numbers: my own. Round 4's RoMe ordered 6 / 10 tense, 3 / 6 degree, 8 / 8 noun number
and 4 / 8 number-word triples right; round 5's rules (``rome.metric.words.word_rules``,
``number_key``; docs/rome.md, "Round 5") 9, 5, 8 and 6. Too small to rank metrics; here so that
these changes do not go blind again.
"""

from __future__ import annotations

import pytest

from rome.core.registry import build_metric

TENSE_CHANGES = [
    ("Earlier the Chinese news agency Xinhua reported a plane to be hijacked.",
     "Earlier, the Chinese news agency Xinhua reported that a plane had been hijacked.",
     "Earlier, the Chinese news agency Xinhua reports that a plane had been hijacked."),
    ("The United Nations said on Wednesday that the U.S. government has issued assurances that communications will not be monitored.",
     "The United Nations said on Wednesday that the US administration has assured that the communications system will not be monitored.",
     "The United Nations says on Wednesday that the US administration has assured that the communications system will not be monitored."),
    ("On Wednesday, the Senate called on the government to find a solution within the valid legal regulations.",
     "The Senate on Wednesday called on the government to find a solution within the applicable legal rules.",
     "The Senate on Wednesday calls on the government to find a solution within the applicable legal rules."),
    ("Before the 2006 elections, no US State required voters to show a photo ID card.",
     "Before the 2006 elections, no US state required voters to present photo identification.",
     "Before the 2006 elections, no US state requires voters to present photo identification."),
    ("NHK also reported that the Kashiwazaki Kariwa nuclear power plant in Niigata prefecture was operating normally.",
     "In addition, NHK indicated that the Kashiwazaki-Kariwa nuclear power plant in Niigata prefecture was operating normally.",
     "In addition, NHK indicates that the Kashiwazaki-Kariwa nuclear power plant in Niigata prefecture was operating normally."),
    ("In the volley ball competition Jajjhar came first, Mahendragarh was second and Karnal were in third place.",
     "In volleyball competition, Jhajjar stood first, Mahendragarh second and Karnal third.",
     "In volleyball competition, Jhajjar stands first, Mahendragarh second and Karnal third."),
    ("The work done was mostly theoretical, but the program was written to simulate observations made of the Sagittarius galaxy.",
     "The work done was mostly theoretical, but the program was written to simulate observations of the galaxy in Sagittarius.",
     "The work done is mostly theoretical, but the program is written to simulate observations of the galaxy in Sagittarius."),
    ("The company opened a new office in Lyon last year.",
     "Last year the company opened a new office in Lyon.",
     "Last year the company opens a new office in Lyon."),
    ("She will travel to Spain next month.",
     "Next month she will travel to Spain.",
     "Next month she travelled to Spain."),
    ("The museum attracts thousands of visitors every summer.",
     "Every summer the museum draws thousands of visitors.",
     "Every summer the museum drew thousands of visitors."),
]

NUMBER_CHANGES = [
    ("The hotel has a restaurant and a bar on the ground floor.", "On the ground floor the hotel has a restaurant and a bar.", "On the ground floor the hotel has restaurants and a bar."),
    ("The police arrested one suspect after the robbery.", "After the robbery the police arrested one suspect.", "After the robbery the police arrested suspects."),
    ("A child was found near the river on Sunday.", "On Sunday a child was found near the river.", "On Sunday children were found near the river."),
    ("The company closed its factory in Ohio.", "The firm closed its factory in Ohio.", "The firm closed its factories in Ohio."),
    ("Visitors can rent a bicycle at the entrance.", "At the entrance visitors can rent a bicycle.", "At the entrance visitors can rent bicycles."),
    ("The minister answered the question from the journalist.", "The minister replied to the question from the journalist.", "The minister replied to the questions from the journalists."),
    ("The storm damaged the roof of the school.", "The roof of the school was damaged by the storm.", "The roofs of the schools were damaged by the storm."),
    ("He wrote a letter to his sister.", "He sent a letter to his sister.", "He sent letters to his sisters."),
]
DEGREE_CHANGES = [
    ("This restaurant is cheap and serves good food.", "This restaurant is inexpensive and serves good food.", "This restaurant is cheaper and serves good food."),
    ("The new bridge is long.", "The new bridge is quite long.", "The new bridge is the longest."),
    ("The hotel offers a large room with a view.", "The hotel provides a large room with a view.", "The hotel provides the largest room with a view."),
    ("The train was fast and comfortable.", "The train was quick and comfortable.", "The train was faster and comfortable."),
    ("Prices rose slightly in March.", "In March prices went up slightly.", "In March prices went up more slightly."),
    ("It is a small village near the coast.", "It is a small village close to the coast.", "It is the smallest village close to the coast."),
]
NUMBER_WORD_CHANGES = [
    ("The hotel has two restaurants and a pool.", "There are two restaurants and a pool at the hotel.", "The hotel has three restaurants and a pool."),
    ("Five people were injured in the accident.", "The accident injured five people.", "Seven people were injured in the accident."),
    ("The museum is open seven days a week.", "The museum opens seven days a week.", "The museum is open six days a week."),
    ("She has lived in Paris for ten years.", "She has been living in Paris for ten years.", "She has lived in Paris for twelve years."),
    ("The meeting lasted about three hours.", "The meeting went on for about three hours.", "The meeting lasted about four hours."),
    ("Only one bridge crosses the river here.", "Here just one bridge crosses the river.", "Only two bridges cross the river here."),
    ("The team scored twice in the first half.", "In the first half the team scored twice.", "The team scored three times in the first half."),
    ("Nearly a hundred workers lost their jobs.", "Almost a hundred workers lost their jobs.", "Nearly a thousand workers lost their jobs."),
]


@pytest.mark.parametrize(("triples", "name", "at_least"), [
    (TENSE_CHANGES, "rome", 9), (TENSE_CHANGES, "rome/emd_std", 10),
    (DEGREE_CHANGES, "rome", 5), (NUMBER_CHANGES, "rome", 8),
    (NUMBER_WORD_CHANGES, "rome", 6), (NUMBER_WORD_CHANGES, "rome/emd_std", 7),
], ids=["tense-rome", "tense-emd", "degree-rome", "number-rome", "number-word-rome", "number-word-emd"])
def test_rome_prefers_the_mt_to_a_one_word_change(triples, name, at_least):
    metric = build_metric(name)
    refs = [t[0] for t in triples]
    kept = metric.score([t[1] for t in triples], refs)
    changed = metric.score([t[2] for t in triples], refs)
    right = sum(float(k) > float(c) for k, c in zip(kept, changed))
    assert right >= at_least, f"{name} ordered {right} of {len(triples)} right"
