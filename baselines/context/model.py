"""The context model: MPNet's encoder with a masked-language-model head, to judge words in context.

A meaning-kept perturbation is valid only where its swap reads as naturally, in this sentence, as the
word it replaces ("respond to an email" is not "react to an email"). What decides that is the
context, so the perturbations ask a masked language model how well a word fits its slot
(:meth:`ContextModel.word_log_probs`) and how natural a whole rewrite is
(:meth:`ContextModel.pseudo_log_likelihood`, Salazar et al. 2020).

Independence: the metrics under test run on all-MiniLM-L6-v2; this model is all-mpnet-base-v2 (another
architecture, another pre-training), and its probabilities come from a masked-LM head over MPNet's
hidden states, trained by ``python -m baselines.context.train`` on text no corpus of the project draws from
(WordNet's glosses and examples, CoLA's acceptable training sentences). Both encoders were fine-tuned
on the same sentence-pair data by their authors, so the perturbations use the head's probabilities
(MPNet's masked-LM pre-training) and never sentence-embedding similarity. The head reads layer
:attr:`ContextModel.layer` of the encoder; the layers above it are never run.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from baselines.context.files import MODEL_NAME, WEIGHTS_SHA256, encoder_dir
from rome.core.errors import ResourceMissingError
from rome.core.fingerprint import file_digest

HEAD_FILE = "mlm_head.safetensors"
HEAD_CARD = "mlm_head.json"
#: longest input in word pieces (MPNet's limit is 514 positions); longer texts are cut around the slot
MAX_PIECES = 256
BATCH_SIZE = 32


def head_path() -> Path:
    """The shipped head's weights (package data, written by ``python -m baselines.context.train``)."""
    return Path(str(resources.files("baselines.context") / "weights" / HEAD_FILE))


@dataclass(frozen=True)
class _Job:
    """One forward pass: ``ids`` with masks; read the log-probability of ``targets`` at ``positions``."""

    ids: tuple[int, ...]
    positions: tuple[int, ...]
    targets: tuple[int, ...]


_threads_lock = threading.Lock()
_threads_users = 0
_threads_before = 0


@contextlib.contextmanager
def one_torch_thread(torch: Any) -> Iterator[None]:
    """Torch's intra-op thread count at 1 while any caller is inside, restored to what it was when the last
    one leaves. One short input gains little from threads, which spin on a shared CPU (7x slower measured on
    2 busy cores), and one thread gives the same floats on every machine. The count is process-wide (torch
    has no per-call setting): other torch work of the process during such a call runs on one thread too.
    Counted under a lock, so concurrent callers never restore each other's 1 as the original."""
    global _threads_users, _threads_before
    with _threads_lock:
        if _threads_users == 0:
            _threads_before = torch.get_num_threads()
            torch.set_num_threads(1)
        _threads_users += 1
    try:
        yield
    finally:
        with _threads_lock:
            _threads_users -= 1
            if _threads_users == 0:
                torch.set_num_threads(_threads_before)


class ContextModel:
    """MPNet's first ``layer`` layers plus a masked-LM head (dense, GELU, layer norm, decoder tied to
    MPNet's input embeddings, bias). Loaded lazily; thread-safe; CPU by default. :meth:`masked_log_probs`
    runs torch on one thread (:func:`one_torch_thread`: process-wide while it runs, restored after)."""

    def __init__(self, encoder: str | Path | None = None, head: str | Path | None = None,
                 device: str = "cpu") -> None:
        self._encoder_path = Path(encoder) if encoder else None
        self._head_path = Path(head) if head else head_path()
        self.device = device
        self._lock = threading.RLock()
        self._loaded = False

    # -- loading -----------------------------------------------------------------------------
    @property
    def card(self) -> dict:
        card = self._head_path.with_name(HEAD_CARD)
        return json.loads(card.read_text()) if card.is_file() else {}

    @property
    def layer(self) -> int:
        return int(self.card.get("layer", 12))

    def signature(self) -> str:
        """Which encoder and which head: a perturbation that uses them is keyed by both."""
        encoder = WEIGHTS_SHA256[:12] if self._encoder_path is None else file_digest(
            self._encoder_path / "model.safetensors")[:12]
        return f"{MODEL_NAME}@{encoder}+head@{file_digest(self._head_path)[:12]}/L{self.layer}"

    def _load(self) -> None:
        with self._lock:
            if self._loaded:
                return
            import torch
            from safetensors.torch import load_file
            from transformers import AutoTokenizer, MPNetModel

            if not self._head_path.is_file():
                raise ResourceMissingError(f"context model head {self._head_path} not found; "
                                           "build it with `python -m baselines.context.train`")
            from transformers.utils import logging as hf_logging

            path = self._encoder_path or encoder_dir()
            self.tokenizer = AutoTokenizer.from_pretrained(str(path))
            verbosity, bars = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
            hf_logging.set_verbosity_error()  # the checkpoint's unused pooler is reported at load
            hf_logging.disable_progress_bar()
            try:
                model = MPNetModel.from_pretrained(str(path), add_pooling_layer=False)
            finally:
                hf_logging.set_verbosity(verbosity)
                if bars:
                    hf_logging.enable_progress_bar()
            model.encoder.layer = model.encoder.layer[: self.layer]
            self.model = model.to(self.device).eval()
            self.head = make_head(model.embeddings.word_embeddings.weight)
            self.head.load_state_dict(load_file(str(self._head_path)))
            self.head = self.head.to(self.device).eval()
            self._torch = torch
            self._loaded = True

    # -- scoring ------------------------------------------------------------------------------
    def _run(self, jobs: Sequence[_Job]) -> list[list[float]]:
        """Log-probabilities of each job's targets, batched by length (fewest pads)."""
        self._load()
        torch = self._torch
        out: list[list[float]] = [[] for _ in jobs]
        order = sorted(range(len(jobs)), key=lambda j: len(jobs[j].ids))
        pad = self.tokenizer.pad_token_id
        for start in range(0, len(order), BATCH_SIZE):
            batch = [jobs[j] for j in order[start : start + BATCH_SIZE]]
            width = max(len(job.ids) for job in batch)
            ids = torch.full((len(batch), width), pad, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for r, job in enumerate(batch):
                ids[r, : len(job.ids)] = torch.tensor(job.ids)
                mask[r, : len(job.ids)] = 1
            rows = [r for r, job in enumerate(batch) for _ in job.positions]
            cols = [p for job in batch for p in job.positions]
            with torch.inference_mode():
                hidden = self.model(input_ids=ids.to(self.device), attention_mask=mask.to(self.device)).last_hidden_state
                logp = torch.log_softmax(self.head(hidden[rows, cols]).float(), dim=-1)
            targets = [t for job in batch for t in job.targets]
            values = logp[torch.arange(len(targets)), torch.tensor(targets)].tolist()
            k = 0
            for r, job in enumerate(batch):
                out[order[start + r]] = values[k : k + len(job.targets)]
                k += len(job.targets)
        return out

    def _pieces(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        enc = self.tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        return list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]

    def _window(self, ids: list[int], lo: int, hi: int) -> tuple[list[int], int]:
        """Special tokens around at most :data:`MAX_PIECES` pieces centred on ``ids[lo:hi]``; the
        offset by which positions moved."""
        budget = MAX_PIECES - 2
        start = max(0, min(lo - (budget - (hi - lo)) // 2, len(ids) - budget))
        cut = ids[start : start + budget]
        return [self.tokenizer.cls_token_id, *cut, self.tokenizer.sep_token_id], 1 - start

    def word_log_probs(self, text: str, start: int, end: int, words: Sequence[str]) -> list[float]:
        """log P(word | the text with ``text[start:end]`` replaced by it) for each word: the word's
        pieces are masked and read left to right (chain rule), so a word of several pieces gets its
        joint probability. The original ``text[start:end]`` may be among ``words``."""
        self._load()
        left, right = text[:start], text[end:]
        jobs, owners = [], []
        for w, word in enumerate(words):
            lid, _ = self._pieces(left.rstrip())
            wid, _ = self._pieces((" " if left[-1:].isspace() else "") + word) if left else self._pieces(word)
            rid, _ = self._pieces(right) if right else ([], [])
            if not wid:
                continue
            # pieces read one at a time, left to right: mask the rest of the word, reveal what was read
            for k in range(len(wid)):
                body = lid + wid[:k] + [self.tokenizer.mask_token_id] * (len(wid) - k) + rid
                ids, shift = self._window(body, len(lid), len(lid) + len(wid))
                jobs.append(_Job(tuple(ids), (len(lid) + k + shift,), (wid[k],)))
                owners.append(w)
        scores = [0.0 if self._pieces(word)[0] else -math.inf for word in words]
        for owner, values in zip(owners, self._run(jobs)):
            scores[owner] += values[0]
        return scores

    def masked_log_probs(self, text: str, slots: Sequence[tuple[int, int, Sequence[str]]],
                         masked: Sequence[tuple[int, int]] = ()) -> list[list[float | None]]:
        """Every slot ``(start, end, words)`` of ``text`` masked at once with one mask piece each (and every
        span of ``masked``, one mask each): log P(word | the text so masked) at each slot for each of its
        ``words``, ``None`` for a word the vocabulary does not hold as one piece. One forward pass judges
        the words of several slots (a perturbation's cheap judge); :meth:`word_log_probs` is the exact
        one-slot judge of a word of any length. Slots and spans must not overlap."""
        self._load()
        torch = self._torch
        spans = sorted([(s, e, k) for k, (s, e, _) in enumerate(slots)] + [(s, e, -1) for s, e in masked])
        ids: list[int] = []
        where: dict[int, int] = {}
        cursor = 0
        for start, end, k in spans:
            ids += self._pieces(text[cursor:start])[0]
            if k >= 0:
                where[k] = len(ids)
            ids.append(self.tokenizer.mask_token_id)
            cursor = end
        ids += self._pieces(text[cursor:])[0]
        if not where:
            return [[] for _ in slots]
        lo, hi = min(where.values()), max(where.values()) + 1
        if len(ids) > MAX_PIECES - 2 and hi - lo > MAX_PIECES - 2:
            return [self.masked_log_probs(text, [one])[0] for one in slots]  # too far apart for one window
        window, shift = self._window(ids, lo, hi)
        order = sorted(where)
        with one_torch_thread(torch), torch.inference_mode():
            hidden = self.model(input_ids=torch.tensor([window], device=self.device)).last_hidden_state[0]
            logp = torch.log_softmax(self.head(hidden[[where[k] + shift for k in order]]).float(), dim=-1)
        out: list[list[float | None]] = []
        for k, (_, _, words) in enumerate(slots):
            row = order.index(k)
            scores: list[float | None] = []
            for word in words:
                pieces = self._pieces(word)[0]
                scores.append(float(logp[row, pieces[0]]) if len(pieces) == 1 else None)
            out.append(scores)
        return out

    def pseudo_log_likelihood(self, texts: Sequence[str], spacing: int | None = None) -> list[tuple[float, int]]:
        """(sum of log P(piece | the rest), number of pieces) per text: each piece masked in turn
        (Salazar et al. 2020, "Masked Language Model Scoring"). An empty text gives (0.0, 0).

        ``spacing`` k masks the pieces ``r, r + k, r + 2k, ...`` together, one forward pass per offset ``r``:
        k passes per text instead of one per piece, each piece read with every k-th other piece hidden
        (k = 7 hides about 15 %, the rate MPNet was pre-trained at). ``None``: one piece per pass (exact)."""
        if spacing is not None and spacing < 1:
            raise ValueError("spacing must be at least 1 (or None: one piece per pass)")
        self._load()
        jobs, owners = [], []
        for t, text in enumerate(texts):
            ids, _ = self._pieces(text)
            ids = ids[: MAX_PIECES - 2]
            step = len(ids) if spacing is None else spacing
            for offset in range(min(step, len(ids))):
                masked = range(offset, len(ids), step)
                body = [self.tokenizer.cls_token_id, *ids, self.tokenizer.sep_token_id]
                for i in masked:
                    body[i + 1] = self.tokenizer.mask_token_id
                jobs.append(_Job(tuple(body), tuple(i + 1 for i in masked), tuple(ids[i] for i in masked)))
                owners.append(t)
        totals = [(0.0, 0) for _ in texts]
        for owner, values in zip(owners, self._run(jobs)):
            total, n = totals[owner]
            totals[owner] = (total + sum(values), n + len(values))
        return totals


def make_head(embeddings):
    """The masked-LM head over hidden states: dense, GELU, layer norm, then the decoder tied to MPNet's
    input embeddings (a buffer: never trained, never saved with the head) plus a bias."""
    import torch

    class MaskedLMHead(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            hidden = embeddings.shape[1]
            self.dense = torch.nn.Linear(hidden, hidden)
            self.norm = torch.nn.LayerNorm(hidden)
            self.bias = torch.nn.Parameter(torch.zeros(embeddings.shape[0]))
            self.register_buffer("decoder", embeddings.detach(), persistent=False)

        def forward(self, hidden_states):
            return self.norm(torch.nn.functional.gelu(self.dense(hidden_states))) @ self.decoder.T + self.bias

    return MaskedLMHead()


_models: dict[tuple, ContextModel] = {}
_models_lock = threading.Lock()


def get_context_model(encoder: str | Path | None = None, head: str | Path | None = None) -> ContextModel:
    """One context model per (encoder, head) in the process."""
    key = (str(encoder or ""), str(head or ""))
    with _models_lock:
        if key not in _models:
            _models[key] = ContextModel(encoder, head)
        return _models[key]


def fingerprint_files() -> list[Path]:
    """The head's weights and card key GRUEN's likelihood feature (the encoder's weights are
    pinned by :data:`baselines.context.files.WEIGHTS_SHA256`, which is in this package's code)."""
    return [p for p in (head_path(), head_path().with_name(HEAD_CARD)) if p.is_file()]
