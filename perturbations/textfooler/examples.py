"""Examples of the textfooler recipe, run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The carriage inn does not allow dogs .", "The carriage inn does not permit dogs ."),
    skips("Shakespeare has written Macbeth .", "names are kept; 'write' has no synonym of its sense"),
    skips("The phone number of hotel drisco is 4153462880 .", "numbers and names are kept"),
)
