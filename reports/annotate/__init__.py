"""Human annotation of perturbed cases (RoMe paper, appendix A.3): a local web app, SQLite storage,
JSONL export for the robustness report, and inter-annotator agreement (Cohen's / Fleiss' κ).

Flask and statsmodels are imported only by the modules that need them (``app``, ``agreement``).
"""

#: the paper's three criteria, each rated 1 (poor), 2 (average) or 3 (good)
CRITERIA = ("fluency", "semantics", "grammar")
RATINGS = (1, 2, 3)
