"""Gemma 3 270M (base) as a scorer of English: token log-probabilities, cheaply, on a CPU.

Why a causal language model: whether a swapped word or a passive reads as English a writer would produce
shows in how probable the whole sentence is, the words *after* the change included ("place the order" →
"set the order" is improbable only once "order" follows). The model is read, never trained.

Cost (the judge runs on a 2-core CPU): batches sorted by length and right-padded (a causal model's real
tokens never see the padding after them), ``torch.inference_mode``, and the original's forward pass
reused: it is run once per original, and each variant is scored from its first changed token on a copy of
the original's key/value cache cropped there (the original's output at the token before gives the first
changed token's probability). The global thread count of torch is never changed here.

The output layer is the main cost (262,144 words × 640 per token, twice the rest of the network), and
almost all of it serves other languages and code. Log-probabilities are therefore normalised over the
pieces of English words only (:data:`ENGLISH_WORDS` most frequent words of ``wordfreq``, lower-case and
capitalised, with and without a leading space, plus punctuation and digits: under a third of the
vocabulary); a piece outside that set is added to its own normaliser. On English text the dropped words
carry a negligible share of the probability (``tests/test_judge.py`` compares with the full softmax).
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from perturbations.judge.files import GGUF_SHA256, tokenizer_dir, weights_dir

#: the English vocabulary the log-probabilities are normalised over (see the module docstring)
ENGLISH_WORDS = 50_000
#: most tokens in one batch (rows × longest row): bounds the 262k-word output layer's logits (~1 GB)
MAX_BATCH_TOKENS = 1024
#: originals whose forward pass is kept (:meth:`LanguageModel.prime`)
PRIMED_KEPT = 8
#: a text this long (tokens) is extended item by item: the batched pass places tails by position ids, while
#: the model's local layers place their window by cache position (512 tokens)
SLIDING_SAFE = 480


class Primed:
    """One original's forward pass: its ids, the last hidden state at every position and the key/value
    cache; ``lp`` (``lp[j]`` is token ``j + 1``'s log-probability) is computed when first read (ranking a
    text's substitutes needs only the cache)."""

    def __init__(self, ids: list[int], rows: Any, cache: Any, logp) -> None:
        self.ids = ids
        self.rows = rows
        self.cache = cache
        self._logp = logp
        self._lp: np.ndarray | None = None

    @property
    def lp(self) -> np.ndarray:
        if self._lp is None:
            self._lp = self._logp(self)
        return self._lp


class LanguageModel:
    """The judge's language model; build it through :func:`language_model` (one per process)."""

    def __init__(self) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir()))
        self.model = AutoModelForCausalLM.from_pretrained(str(weights_dir()), dtype=torch.float32)
        self.model.eval()
        self.bos = self.tokenizer.bos_token_id
        self.signature = f"gemma-3-270m-q4_k_m@{GGUF_SHA256[:12]}"
        self._lock = threading.RLock()
        self._primed: dict[tuple[int, ...], Primed] = {}

    def encode(self, text: str) -> list[int]:
        """The text's token ids after the beginning-of-text token (which is never scored)."""
        return [self.bos, *self.tokenizer(text, add_special_tokens=False)["input_ids"]]

    def pieces(self, text: str) -> list[int]:
        """The text's token ids as a continuation (no beginning-of-text token)."""
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    @functools.cached_property
    def english(self):
        """Ids of the English pieces (sorted) and their rows of the output layer."""
        import string

        import torch
        from wordfreq import top_n_list

        words = top_n_list("en", ENGLISH_WORDS)
        forms = [f for w in words for f in (w, " " + w, w.capitalize(), " " + w.capitalize())]
        forms += [c for c in string.punctuation + string.digits] + [" " + c for c in string.punctuation + string.digits]
        forms += ["\n", " "]
        ids = {i for batch in self.tokenizer(forms, add_special_tokens=False)["input_ids"] for i in batch}
        index = torch.tensor(sorted(ids), dtype=torch.long)
        weight = self.model.get_output_embeddings().weight
        return index, weight[index].detach().clone()

    def _hidden(self, rows: list[list[int]], cache=None, offset: int = 0):
        """The last hidden states of right-padded ``rows`` (after a cached prefix of ``offset`` tokens when
        ``cache`` is given), the padded ids and the model's key/value cache."""
        import torch

        width = max(len(r) for r in rows)
        ids = torch.zeros((len(rows), width), dtype=torch.long)
        mask = torch.zeros((len(rows), offset + width), dtype=torch.long)
        mask[:, :offset] = 1
        for i, row in enumerate(rows):
            ids[i, :len(row)] = torch.tensor(row)
            mask[i, offset:offset + len(row)] = 1
        out = self.model.model(input_ids=ids, attention_mask=mask, cache=cache, use_cache=True)
        return out.last_hidden_state, ids, out.cache

    def _logp(self, hidden, targets):
        """log P(target) at each position of ``hidden`` (..., 640), normalised over the English pieces and
        the target itself."""
        import torch

        _, weight = self.english
        return self._normalised(hidden, targets, torch.logsumexp((hidden @ weight.T).float(), dim=-1))

    def _logp_rows(self, rows, targets):
        """:meth:`_logp` for ``rows[k]`` -> ``targets[k]``, the English normaliser computed once per distinct
        row (a word's candidates share one distribution)."""
        import torch

        unique, inverse = torch.unique(rows, dim=0, return_inverse=True)
        _, weight = self.english
        return self._normalised(rows, targets, torch.logsumexp((unique @ weight.T).float(), dim=-1)[inverse])

    def _normalised(self, hidden, targets, lse):
        """log P(target) from the English normaliser ``lse`` of each row: a target outside the English
        pieces is added to its own row's normaliser."""
        import torch

        index, _ = self.english
        full = self.model.get_output_embeddings().weight
        target = (hidden * full[targets]).sum(-1).float()
        inside = torch.isin(targets, index)
        return torch.where(inside, target - lse, target - torch.logaddexp(lse, target))

    @staticmethod
    def _batches(order: list[int], length, budget: int = MAX_BATCH_TOKENS):
        start = 0
        while start < len(order):
            stop = start + 1
            while stop < len(order) and (stop - start + 1) * length(order[stop]) <= budget:
                stop += 1
            yield order[start:stop]
            start = stop

    def token_logprobs(self, sequences: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """For each id sequence (beginning-of-text token first), each later token's log-probability."""
        import torch

        order = sorted(range(len(sequences)), key=lambda i: len(sequences[i]))
        result: list[np.ndarray] = [np.zeros(0)] * len(sequences)
        with self._lock, torch.inference_mode():
            for members in self._batches(order, lambda i: len(sequences[i])):
                batch = [list(sequences[i]) for i in members]
                hidden, ids, _ = self._hidden(batch)
                picked = self._logp(hidden[:, :-1], ids[:, 1:]).numpy()
                for k, i in enumerate(members):
                    result[i] = picked[k, :len(batch[k]) - 1].astype(np.float64)
        return result

    def sentence_logprobs(self, texts: Sequence[str]) -> list[float]:
        """Summed token log-probabilities of each text (for pre-ranking candidates)."""
        return [float(x.sum()) for x in self.token_logprobs([self.encode(t) for t in texts])]

    def prime(self, ids: Sequence[int]) -> Primed:
        """Run one original (ids from :meth:`encode`) once, keeping what its variants reuse (the last
        :data:`PRIMED_KEPT` originals are kept: a perturbation ranks a text's words, then judges its variants,
        on the same pass). Callers never change a :class:`Primed` (they copy its cache)."""
        key = tuple(ids)
        with self._lock:
            if key in self._primed:
                return self._primed[key]
        primed = self._prime(ids)
        with self._lock:
            self._primed[key] = primed
            while len(self._primed) > PRIMED_KEPT:
                self._primed.pop(next(iter(self._primed)))
        return primed

    def _prime(self, ids: Sequence[int]) -> Primed:
        import torch

        with self._lock, torch.inference_mode():
            hidden, _, cache = self._hidden([list(ids)])
        return Primed(list(ids), hidden[0], cache, self._original_logprobs)

    def _original_logprobs(self, primed: Primed) -> np.ndarray:
        import torch

        with self._lock, torch.inference_mode():
            targets = torch.tensor(primed.ids[1:], dtype=torch.long)
            return self._logp(primed.rows[:-1], targets).numpy().astype(np.float64)

    def _cache_at(self, primed: Primed, keep: int):
        """A copy of the original's key/value cache holding its first ``keep`` tokens. The model's local
        layers keep only their window (512 tokens) and cannot be cropped once it is full, so a text that
        long is run again up to ``keep`` instead."""
        if keep == len(primed.ids):
            return copy.deepcopy(primed.cache)
        if len(primed.ids) < SLIDING_SAFE:
            cache = copy.deepcopy(primed.cache)
            cache.crop(keep - len(primed.ids))  # a negative count: tokens removed from the end
            return cache
        return self._hidden([list(primed.ids[:keep])])[2]

    def extend(self, primed: Primed, keep: int, tails: Sequence[Sequence[int]]) -> list[np.ndarray]:
        """Log-probabilities of each tail's tokens after the original's first ``keep`` tokens
        (``1 <= keep <= len(primed.ids)``): the tails share the original's cache cropped at ``keep``."""
        import torch

        result: list[np.ndarray] = [np.zeros(0)] * len(tails)
        live = sorted((i for i, t in enumerate(tails) if len(t)), key=lambda i: len(tails[i]))
        if not live:
            return result
        with self._lock, torch.inference_mode():
            heads = self._logp_rows(primed.rows[keep - 1].expand(len(live), -1),
                                    torch.tensor([tails[i][0] for i in live])).numpy()
            first = dict(zip(live, heads.tolist()))
            for members in self._batches(live, lambda i: len(tails[i]) + keep // 4):
                batch = [list(tails[i]) for i in members]
                inner = None
                if max(len(b) for b in batch) > 1:
                    cache = self._cache_at(primed, keep)
                    if len(batch) > 1:
                        cache.batch_repeat_interleave(len(batch))
                    hidden, tids, _ = self._hidden(batch, cache=cache, offset=keep)
                    inner = self._logp(hidden[:, :-1], tids[:, 1:]).numpy()
                for k, i in enumerate(members):
                    head = [first[i]]
                    rest = inner[k, :len(batch[k]) - 1] if inner is not None else []
                    result[i] = np.concatenate([head, rest]).astype(np.float64)
        return result

    def extend_at(self, primed: Primed, items: Sequence[tuple[int, Sequence[int]]],
                  targets: Sequence[Sequence[int]] | None = None) -> list[np.ndarray]:
        """:meth:`extend` for many ``(keep, tail)`` at once, in one batched pass: every row reads the
        original's whole cache, the positions past its own ``keep`` hidden by the attention mask and its
        tail placed at positions ``keep, keep + 1, ...`` (the model's weights are read once, which is what
        a pass costs on a CPU). With ``targets``, item ``k`` gives instead log P(t) of each ``t`` in
        ``targets[k]`` as the token after its tail (a word's substitutes from one distribution).
        Falls back to one :meth:`extend` per item on a text near the model's sliding window."""
        import torch

        n = len(primed.ids)
        out: list[np.ndarray] = [np.zeros(0)] * len(items)
        live = [k for k, (_, tail) in enumerate(items) if len(tail) or targets is not None]
        if not live:
            return out
        if n + max(len(items[k][1]) for k in live) >= SLIDING_SAFE:
            for k in live:
                keep, tail = items[k]
                out[k] = (self.next_logprobs(primed, keep, tail, targets[k]) if targets is not None
                          else self.extend(primed, keep, [tail])[0])
            return out
        with self._lock, torch.inference_mode():
            with_tail = [k for k in live if len(items[k][1])]
            hidden = None
            if with_tail:
                width = max(len(items[k][1]) for k in with_tail)
                ids = torch.zeros((len(with_tail), width), dtype=torch.long)
                mask = torch.zeros((len(with_tail), n + width), dtype=torch.long)
                positions = torch.zeros((len(with_tail), width), dtype=torch.long)
                for r, k in enumerate(with_tail):
                    keep, tail = items[k]
                    ids[r, : len(tail)] = torch.tensor(list(tail))
                    mask[r, :keep] = 1
                    mask[r, n : n + len(tail)] = 1
                    positions[r] = torch.arange(keep, keep + width)
                cache = copy.deepcopy(primed.cache)
                if len(with_tail) > 1:
                    cache.batch_repeat_interleave(len(with_tail))
                hidden = self.model.model(input_ids=ids, attention_mask=mask, position_ids=positions,
                                          cache=cache, use_cache=True).last_hidden_state
            row_of = {k: r for r, k in enumerate(with_tail)}
            if targets is not None:
                rows, wanted, owner = [], [], []
                for k in live:
                    keep, tail = items[k]
                    last = hidden[row_of[k], len(tail) - 1] if len(tail) else primed.rows[keep - 1]
                    for t in targets[k]:
                        rows.append(last)
                        wanted.append(t)
                        owner.append(k)
                if rows:
                    found = self._logp_rows(torch.stack(rows), torch.tensor(wanted, dtype=torch.long)).numpy()
                    for k in live:
                        out[k] = np.array([v for v, o in zip(found, owner) if o == k], dtype=np.float64)
                return out
            rows, wanted, place = [], [], []  # every tail token's predicting row, in one normaliser pass
            for r, k in enumerate(with_tail):
                keep, tail = items[k]
                for j, token in enumerate(tail):
                    rows.append(primed.rows[keep - 1] if j == 0 else hidden[r, j - 1])
                    wanted.append(token)
                    place.append(k)
            found = self._logp_rows(torch.stack(rows), torch.tensor(wanted, dtype=torch.long)).numpy()
            for k in with_tail:
                out[k] = np.array([v for v, o in zip(found, place) if o == k], dtype=np.float64)
        return out

    def next_logprobs(self, primed: Primed, keep: int, tail: Sequence[int], targets: Sequence[int]) -> np.ndarray:
        """log P(target) of each of ``targets`` as the token after the original's first ``keep`` tokens and
        ``tail``: one small pass from the cropped cache, whatever the number of targets (a word's
        substitutes are read from one distribution, not scored one pass each)."""
        import torch

        if not len(targets):
            return np.zeros(0)
        with self._lock, torch.inference_mode():
            if len(tail):
                cache = self._cache_at(primed, keep)
                hidden, _, _ = self._hidden([list(tail)], cache=cache, offset=keep)
                last = hidden[0, len(tail) - 1]
            else:
                last = primed.rows[keep - 1]
            found = self._logp_rows(last.expand(len(targets), -1), torch.tensor(list(targets), dtype=torch.long))
        return found.numpy().astype(np.float64)

    def pair_logprobs(self, original: str, variants: Sequence[str], window: int | None = None,
                      primed: Primed | None = None, extra: Sequence[tuple[int, Sequence[int]]] = (),
                      ) -> tuple[np.ndarray, list[np.ndarray], list[tuple[int, int]], list[np.ndarray]]:
        """The original's token log-probabilities, each variant's, and for each variant where its tokens
        first differ from the original's and where the original's comparable stretch ends (indexes into the
        log-probability arrays: compare ``variant[split:]`` with ``original[split:end]``). With ``window``,
        a variant is scored only up to ``window`` tokens past its last changed token, and the original's
        stretch ends as many tokens past its own. ``extra``: more ``(keep, tail)`` items of
        :meth:`extend_at` scored in the same pass (their log-probabilities are the fourth value)."""
        primed = primed or self.prime(self.encode(original))
        full = self.encode(original)  # the primed ids may stop early: what is past them is never compared
        base = full
        out: list[np.ndarray] = [np.zeros(0)] * len(variants)
        splits: list[int] = []
        ends: list[int] = []
        groups: dict[int, list[int]] = {}
        tails: dict[int, list[int]] = {}
        for i, variant in enumerate(variants):
            ids = self.encode(variant)
            k, stop, end = change_span(base, ids, window)
            ends.append(end)
            tails[i] = ids[k:stop]
            splits.append(k)
            groups.setdefault(k, []).append(i)
        order = [i for members in groups.values() for i in members]
        scored = self.extend_at(primed, [*((splits[i], tails[i]) for i in order), *extra])
        for i, tail in zip(order, scored):
            out[i] = np.concatenate([primed.lp[:splits[i] - 1], tail])
        return primed.lp, out, [(k - 1, end) for k, end in zip(splits, ends)], scored[len(order):]


def change_span(base: Sequence[int], ids: Sequence[int], window: int | None) -> tuple[int, int, int]:
    """For an original's ids and a variant's: the first token where they differ (at least 1), where the
    variant's scored stretch stops and where the original's comparable stretch ends (an index into its
    log-probabilities); without ``window`` both run to the end."""
    k = 0
    while k < min(len(ids), len(base)) and ids[k] == base[k]:
        k += 1
    k = max(1, min(k, len(base)))
    if window is None:
        return k, len(ids), len(base) - 1
    same = 0  # tokens shared at the end: the change ends before them
    while same < min(len(ids), len(base)) - k and ids[-1 - same] == base[-1 - same]:
        same += 1
    return k, min(len(ids), len(ids) - same + window), min(len(base), len(base) - same + window) - 1


@functools.lru_cache(maxsize=1)
def language_model() -> LanguageModel:
    """The process-wide judge language model (loaded on first use, about 1.1 GB in float32)."""
    return LanguageModel()
