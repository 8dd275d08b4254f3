"""What GRUEN's likelihood feature does here, on the outputs' texts alone (no rating is read).

``python scripts/research/gruen_likelihood.py [DATASET ...] [--limit N]`` (default: sfhotel bagel): per dataset, the
outputs' sentences as GRUEN splits them, and

* the paper's feature (each word piece masked in turn, the context model's pseudo-log-likelihood) mapped as the
  release maps it, ``exp(-0.5 * perplexity)``: the share of sentences whose term ``/ 8`` falls below double
  precision next to 0.5 (perplexity > 70), and how far it moves ``gruen`` from ``gruen/grammar``
  (the CoLA feature alone);
* the release's reading (BERT *unmasked*, ``labels=input_ids``: each token predicted while visible, the special
  tokens included, perplexities averaged over an output's sentences before the map) computed with the same model:
  the size and spread of its term, to show what following the paper instead of the release changes;
* speed: sentences and outputs per second of the masked pass (this CPU, models loaded).

docs/baselines.md's GRUEN section quotes its output.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy.stats import spearmanr

from baselines.context.model import get_context_model
from baselines.gruen import (
    GRAMMAR_DIVISOR,
    GRUEN,
    LIKELIHOOD_DECAY,
    GRUENModule,
    likelihood_feature,
    sentence_log_probs,
    split_sentences,
)
from rome.data.novikova import NOVIKOVA_DATASETS, load_rows

#: a term ``exp(-0.5 * ppl) / 8`` below half the spacing of doubles at 0.5 (2**-54) adds nothing to a score
#: there: perplexity above this (about 70.7)
VANISHING_PERPLEXITY = -math.log(GRAMMAR_DIVISOR * 2.0**-54) / LIKELIHOOD_DECAY


def unmasked_perplexities(sentences: list[str]) -> dict[str, float]:
    """The release's reading with the context model: ``exp(mean cross-entropy)`` of predicting every token of
    ``[CLS] pieces [SEP]`` from the unmasked input, one forward pass per sentence."""
    import torch

    model = get_context_model()
    model._load()
    out = {}
    for sentence in dict.fromkeys(sentences):
        ids, _ = model._pieces(sentence)
        ids = [model.tokenizer.cls_token_id, *ids[: 510], model.tokenizer.sep_token_id]
        with torch.inference_mode():
            hidden = model.model(input_ids=torch.tensor([ids])).last_hidden_state[0]
            logp = torch.log_softmax(model.head(hidden).float(), dim=-1)
        loss = -logp[torch.arange(len(ids)), torch.tensor(ids)].mean().item()
        out[sentence] = math.exp(loss)
    return out


def describe(name: str, limit: int | None) -> None:
    outputs = list(dict.fromkeys(row["hypothesis"] for row in load_rows(name)))[:limit]
    split = [split_sentences(o) for o in outputs]
    sentences = list(dict.fromkeys(s for ss in split for s in ss))
    start = time.perf_counter()
    log_probs = sentence_log_probs(sentences)
    seconds = time.perf_counter() - start
    perplexity = np.array([math.exp(-log_probs[s]) for s in sentences])
    terms = np.array([likelihood_feature(log_probs[s]) / GRAMMAR_DIVISOR for s in sentences])
    full, grammar = GRUEN(), GRUENModule("grammar")
    moved = np.abs(full.score(outputs, None) - grammar.score(outputs, None))
    unmasked = unmasked_perplexities(sentences)
    release_terms = np.array([math.exp(-LIKELIHOOD_DECAY * unmasked[s]) / GRAMMAR_DIVISOR for s in sentences])
    print(f"{name}: {len(outputs)} distinct outputs, {len(sentences)} sentences")
    print(f"  masked (the paper): pseudo-perplexity median {np.median(perplexity):.0f}, "
          f"quartiles {np.percentile(perplexity, 25):.0f} / {np.percentile(perplexity, 75):.0f}, min {perplexity.min():.1f}; "
          f"> {VANISHING_PERPLEXITY:.0f} (term lost next to 0.5): {np.mean(perplexity > VANISHING_PERPLEXITY):.1%}")
    print(f"  its term exp(-0.5 ppl)/8: max {terms.max():.4f}, 99th percentile {np.percentile(terms, 99):.2e}, "
          f"median {np.median(terms):.1e}; |gruen - gruen/grammar| max {moved.max():.4f}, "
          f"mean {moved.mean():.2e}, outputs moved > 0.001: {np.mean(moved > 1e-3):.1%}")
    print(f"  unmasked (the release's reading, same model): perplexity median {np.median(list(unmasked.values())):.2f}, "
          f"term mean {release_terms.mean():.4f} sd {release_terms.std():.4f}; Spearman of the two readings "
          f"over sentences {spearmanr(perplexity, [unmasked[s] for s in sentences])[0]:.2f}")
    print(f"  speed (masked pass, models loaded): {len(sentences) / seconds:.2f} sentences/s, "
          f"{len(outputs) / seconds:.2f} outputs/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", default=["sfhotel", "bagel"], choices=NOVIKOVA_DATASETS)
    parser.add_argument("--limit", type=int, default=None, help="the first N distinct outputs of each dataset")
    args = parser.parse_args()
    get_context_model().pseudo_log_likelihood(["Load the model first."])
    print(f"context model {get_context_model().signature()}")
    for name in args.datasets:
        describe(name, args.limit)


if __name__ == "__main__":
    main()
