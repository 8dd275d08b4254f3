"""Space-slip typos (CheckList's neighbour swap, one kind of slip): a letter swapped with the space next to it ("the hotel" -> "th ehotel").

The same suite as ``suites/typos_in_word.py`` (:func:`~suites.typos_in_word.typo_suite`) with the other
slip: chrF removes spaces before counting character n-grams, so it cannot see this kind by construction.
"""

from suites.harness import Suite
from suites.typos_in_word import typo_suite

SUITE: Suite = typo_suite("space")
