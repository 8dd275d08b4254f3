"""BERTScore (Zhang et al. 2020) on bert-score's own matching and idf code, fed by the shared encoder.

``bert_score.score`` loads its own copy of the model and encodes every sentence itself. Here
the token embeddings come from the shared cached encoder (one forward pass per unique sentence
for every encoder-based metric of a run), and bert-score's ``greedy_cos_idf`` and
``get_idf_dict`` do the rest, batched exactly as ``bert_cos_score_idf`` batches them, so the
numbers are bert-score's (tests/test_baselines_bertscore.py proves it on real data).

A score does not depend on its batch, and stays in 0..1. bert-score's matching multiplies the
similarities by the padding mask, so a padded position offers a similarity of 0 to each token's
greedy max: in a batch, a token whose best cosine is negative counts as 0 in a row shorter than the
longest (padded) and as negative in the longest or a lone one (``§`` against a reference scored
-0.033 alone, 0.0 batched). Every row is therefore given one masked position more than the batch
needs (:func:`_padded`): each token's best match is floored at 0 in every row, whatever the batch,
which keeps P, R and F within 0..1; the numbers are bert-score's wherever its own row was padded.

The encoder takes hidden state ``layer`` of the full model; bert-score truncates the model to
``num_layers`` layers and takes the last one. The two are the same for BERT-style encoders
(the embedded MiniLM included). Equality is proven for WordPiece models; bert-score's
RoBERTa/GPT-2 prefix-space rule is not reproduced by the shared encoder.
"""

from __future__ import annotations

from collections import defaultdict
from importlib.metadata import version

import numpy as np

from baselines._corpus import CorpusFittedMetric, fit_idf, flat_references
from rome.core.encoder import TokenEmbeddings, get_encoder
from rome.core.errors import InputError

OUTPUTS = ("precision", "recall", "f1")
#: bert-score's batch size for the matching step (``score(batch_size=64)``)
MATCH_BATCH = 64


class BERTScore(CorpusFittedMetric):
    """Greedy cosine matching of contextual token embeddings: precision, recall or F1.

    ``idf=True`` weights tokens by idf over the call's references (all of them, flattened,
    as bert-score does) or over the corpus given to :meth:`prepare`. Multi-reference: the best
    score over the references, taken for the chosen output, as ``bert_score.score`` does.
    An empty hypothesis scores 0, as in bert-score.
    """

    name = "bertscore"
    uses_encoder = True
    score_range = (0.0, 1.0)

    def __init__(
        self, model: str | None = None, layer: int | None = None, idf: bool = False, output: str = "f1"
    ) -> None:
        super().__init__()
        output = output.lower()
        if output not in OUTPUTS:
            raise InputError(f"bertscore output must be one of {', '.join(OUTPUTS)}, got {output!r}")
        self.encoder = get_encoder(model)
        self.layer, self.idf, self.output = layer, bool(idf), output
        self.batch_dependent = self.idf

    @property
    def resolved_layer(self) -> int:
        layer = self.encoder.resolve_layer(self.layer)
        if not 0 <= layer <= self.encoder.num_layers:
            raise InputError(
                f"bertscore layer {self.layer} is out of range for {self.encoder.name} "
                f"(0..{self.encoder.num_layers}, or negative from the top)"
            )
        return layer

    def _fit(self, hypotheses: list[str], references: list[list[str]]) -> dict[int, float] | None:
        return fit_idf(flat_references(references), self.encoder.tokenizer) if self.idf else None

    def _weights(self) -> dict[int, float]:
        """bert-score's idf dict; without idf, 1 for every token but [CLS] and [SEP]."""
        if self.idf:
            return self._stats()
        return self._uniform_weights()

    def _uniform_weights(self) -> dict[int, float]:
        tokenizer = self.encoder.tokenizer
        weights: dict[int, float] = defaultdict(lambda: 1.0)
        weights[tokenizer.sep_token_id] = 0
        weights[tokenizer.cls_token_id] = 0
        return weights

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        import torch
        from bert_score.utils import greedy_cos_idf

        unique = list(dict.fromkeys([*references, *hypotheses]))
        table = dict(zip(unique, self.encoder.encode(unique, self.resolved_layer)))
        weights, uniform = self._weights(), self._uniform_weights()
        rows = []
        with torch.no_grad():
            for start in range(0, len(hypotheses), MATCH_BATCH):
                ref_stats = _padded([table[r] for r in references[start : start + MATCH_BATCH]], weights, uniform)
                hyp_stats = _padded([table[h] for h in hypotheses[start : start + MATCH_BATCH]], weights, uniform)
                rows.append(torch.stack(greedy_cos_idf(*ref_stats, *hyp_stats), dim=-1))
        scores = torch.cat(rows)[:, OUTPUTS.index(self.output)].double().numpy()
        return np.clip(scores, 0.0, 1.0)  # a cosine of 1 + 1e-7 (float rounding) is 1

    def _signature_fields(self) -> list[tuple[str, object]]:
        layer = self.layer if self.layer is not None else "last"
        return [
            ("model", self.encoder.signature_name), ("layer", layer), ("idf", "yes" if self.idf else "no"),
            ("output", self.output), ("bert-score", version("bert-score")),
        ]


def _padded(embeddings: list[TokenEmbeddings], weights: dict[int, float], uniform: dict[int, float]):
    """``bert_cos_score_idf``'s ``pad_batch_stats`` (embeddings padded with 2.0, idf, length mask), with one
    masked position more than the longest row needs, so every row has one (see the module doc).

    A sentence whose every token has idf 0 (each is in every reference of the corpus) would divide 0 by 0
    (bert-score: NaN); its tokens are weighted as without idf (``uniform``) instead.
    """
    import torch
    from torch.nn.functional import pad
    from torch.nn.utils.rnn import pad_sequence

    def token_weights(ids: list[int]) -> list[float]:
        found = [weights[i] for i in ids]
        return found if sum(found) > 0 else [uniform[i] for i in ids]

    vectors = [torch.from_numpy(e.vectors) for e in embeddings]
    idf = [torch.tensor(token_weights(e.input_ids), dtype=torch.float) for e in embeddings]
    lengths = torch.tensor([len(e.input_ids) for e in embeddings])
    mask = torch.arange(int(lengths.max()) + 1).expand(len(embeddings), -1) < lengths.unsqueeze(1)
    padded = pad(pad_sequence(vectors, batch_first=True, padding_value=2.0), (0, 0, 0, 1), value=2.0)
    return padded, mask, pad(pad_sequence(idf, batch_first=True), (0, 1), value=0.0)
