"""The real ``moverscore_v2`` (moverscore 1.0.3) made importable offline on CPU, patched in memory.

Used as the test oracle for ``baselines.moverscore`` (tests/test_baselines_moverscore.py) and by
scripts/research/bench_baselines.py, scripts/research/baselines_agreement.py and scripts/research/moverscore_degenerate.py.
Nothing of the package's source is copied or edited: transformers and numpy are patched in
memory around its import, for the five obstacles listed in docs/moverscore.md:

1. hub download of ``distilbert-base-uncased`` with hard-coded DistilBERT classes at import:
   their ``from_pretrained`` loads the embedded MiniLM as BertConfig/BertModel/BertTokenizer;
2. ``model.to("cuda:0")`` at import: the model ignores ``.to`` (scoring passes ``device="cpu"``);
3. ``tokenizer.max_len`` (now ``model_max_length``): given back as a property;
4. ``output, hidden, _ = model(...)`` (outputs are objects now): the model returns that tuple;
5. ``np.float`` (removed in numpy 1.24): ``float`` while the package is in use.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from types import ModuleType

import numpy as np
import pytest

from rome.core.encoder import embedded_model_path


def _loaders(path: str) -> dict:
    from transformers import BertConfig, BertModel, BertTokenizer

    class OldTokenizer(BertTokenizer):
        @property
        def max_len(self) -> int:
            return self.model_max_length

    class OldModel(BertModel):
        def to(self, *args, **kwargs):
            return self

        def forward(self, input_ids=None, attention_mask=None, **_):
            out = super().forward(input_ids=input_ids, attention_mask=attention_mask, output_hidden_states=True)
            return out.last_hidden_state, out.hidden_states, None

    return {
        "DistilBertConfig": lambda _name, **kw: BertConfig.from_pretrained(path, **kw),
        "DistilBertTokenizer": lambda _name, **kw: OldTokenizer.from_pretrained(path, **kw),
        "DistilBertModel": lambda _name, **kw: OldModel.from_pretrained(path, **kw),
    }


@contextlib.contextmanager
def patched_moverscore_v2() -> Iterator[ModuleType]:
    """Yield the imported package; every patch is undone and the module forgotten on exit."""
    import transformers

    with pytest.MonkeyPatch.context() as patch:
        for name, loader in _loaders(str(embedded_model_path())).items():
            patch.setattr(getattr(transformers, name), "from_pretrained", staticmethod(loader))
        # its `from transformers import *` would import every model in transformers (slow);
        # it only uses the three DistilBERT names
        patch.setattr(transformers, "__all__", ["DistilBertConfig", "DistilBertTokenizer", "DistilBertModel"])
        patch.setattr(np, "float", float, raising=False)
        sys.modules.pop("moverscore_v2", None)
        import moverscore_v2

        patch.undo()
        patch.setattr(np, "float", float, raising=False)  # also used while scoring
        try:
            yield moverscore_v2
        finally:
            sys.modules.pop("moverscore_v2", None)
