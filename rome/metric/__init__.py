"""The RoMe metric (Rony et al., ACL 2022) as its own sub-package: steps, weights and scorer.

Steps: :mod:`words` (parser words with pooled contextual vectors), :mod:`semantic` (EMD with
hard alignment and soft penalties, ``F_sem``), :mod:`tree_edit` (TED-SE, ``F_ted``),
:mod:`grammar` (acceptability classifier, ``F_g``) and :mod:`scorer` (the network combining
them); the trained weights live in ``weights/``. :mod:`rome.training` builds those weights
and is never imported from here, so scoring does not depend on training code.
"""

from rome.metric.metric import (
    VARIANTS,
    Components,
    RoMe,
    components,
    load_grammar,
    rome_align,
    rome_emd_std,
    rome_grammar,
    rome_paper,
    rome_soft,
    rome_ted,
)

__all__ = ["VARIANTS", "Components", "RoMe", "components", "load_grammar", "rome_align", "rome_emd_std",
           "rome_grammar", "rome_paper", "rome_soft", "rome_ted"]
