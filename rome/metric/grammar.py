"""Grammatical acceptability F_g (RoMe paper §3.3): P(acceptable) of a text, trained on CoLA.

The paper fine-tunes BERT-large; we fine-tune the embedded all-MiniLM-L6-v2's top ``k``
layers (the committed weights: all 6) plus a logistic head (see :mod:`rome.training.grammar`).
The committed file holds the head and a low-rank (SVD) copy of each layer's change
(:func:`low_rank_delta`, about 2.7 MB); LoRA adapters (merged at load time) are the other
stored form. Below ``start_layer`` the states are the shared encoder's:
``get_encoder().encode(texts, layer=start_layer)`` (cached per text and layer), or for
``start_layer == 0`` only its embedding layer.

Precision: where the CPU multiplies bfloat16 natively (AVX512-BF16 or AMX), the classifier's layers run
under torch's bfloat16 autocast (the bench's grammar step on the results page), with CoLA dev accuracy
within 0.2 points (docs/grammar.md); elsewhere, or with ``ROME_GRAMMAR_PRECISION=float32``,
in float32. Texts run unpadded, in batches of equal token count, so a text's logit does not depend on its
batch-mates (:meth:`GrammarClassifier.uncached_logits`). The precision is in RoMe's and GRUEN's signatures
and in the logit cache's key, so scores of the two never mix.

One pass per text: RoMe's grammar feature and GRUEN's CoLA feature load the same weights and read the
same outputs, so :meth:`GrammarClassifier.logits` keeps every text's logit in a process-wide cache keyed
by the weights' digest (as :mod:`rome.core.encoder` keeps hidden states): whichever metric asks second
reads the first one's pass. :func:`clear_logit_cache` empties it (the bench times each metric cold).

Users with a hub-hosted CoLA model can use it instead through
:meth:`GrammarClassifier.from_pretrained` (any sequence-classification checkpoint).
"""

from __future__ import annotations

import json
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from rome.core.errors import InputError, ResourceMissingError

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
DEFAULT_WEIGHTS = WEIGHTS_DIR / "grammar_minilm.safetensors"
#: value returned for an empty (or whitespace-only) text: nothing to accept
EMPTY_TEXT_PROB = 0.0
#: logits kept by the process-wide cache (:func:`clear_logit_cache`); a float and a short text each
LOGIT_CACHE_SIZE = 65536

#: texts whose start states are held at once by :meth:`GrammarClassifier.uncached_logits`
WINDOW = 1024
#: the classifier's inference precisions; ``ROME_GRAMMAR_PRECISION`` names one, or ``auto`` (the default)
PRECISIONS = ("float32", "bfloat16")
PRECISION_VARIABLE = "ROME_GRAMMAR_PRECISION"

_logit_cache: OrderedDict[tuple[str, str], float] = OrderedDict()
_logit_cache_lock = threading.Lock()


def clear_logit_cache() -> None:
    """Forget every cached logit (the next :meth:`GrammarClassifier.logits` call runs its own pass)."""
    with _logit_cache_lock:
        _logit_cache.clear()


@lru_cache(maxsize=1)
def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AVX512-BF16 or AMX); elsewhere torch emulates it,
    slower than float32. Read from ``/proc/cpuinfo`` where Linux has it, so that a signature (a warm run's
    cache lookup) does not import torch; torch's own check elsewhere."""
    try:
        flags = next((line.split(":", 1)[1].split() for line in Path("/proc/cpuinfo").read_text().splitlines()
                      if line.startswith("flags")), None)
    except OSError:
        flags = None
    if flags is not None:
        return "avx512_bf16" in flags or "amx_bf16" in flags
    import torch

    return bool(torch.backends.mkldnn.is_available()
                and (torch.cpu._is_avx512_bf16_supported() or torch.cpu._is_amx_tile_supported()))


def default_precision() -> str:
    """``$ROME_GRAMMAR_PRECISION`` when it names one of :data:`PRECISIONS`; for ``auto`` (or unset) bfloat16
    where the CPU has it natively, float32 elsewhere."""
    choice = os.environ.get(PRECISION_VARIABLE, "auto").strip().lower() or "auto"
    if choice in PRECISIONS:
        return choice
    if choice != "auto":
        raise InputError(f"{PRECISION_VARIABLE}={choice!r}: expected auto, {' or '.join(PRECISIONS)}")
    return "bfloat16" if native_bfloat16() else "float32"


def _texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise InputError("prob_acceptable expects a list of texts, not a single string")
    bad = [type(t).__name__ for t in texts if not isinstance(t, str)]
    if bad:
        raise InputError(f"prob_acceptable expects strings, got {bad[0]}")
    return list(texts)


def build_top_layers(config, n_layers: int, start_layer: int):
    """The torch module: the encoder's top BERT layers, mean pooling and a logistic head.

    Defined inside a function so torch is imported only when a classifier is built.
    """
    import torch
    from torch import nn
    from transformers.masking_utils import create_bidirectional_mask
    from transformers.models.bert.modeling_bert import BertLayer

    class _Module(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.config = config
            self.layers = nn.ModuleList(
                BertLayer(config, layer_idx=start_layer + i) for i in range(n_layers)
            )
            self.dropout = nn.Dropout(config.hidden_dropout_prob)
            self.head = nn.Linear(config.hidden_size, 1)

        def forward(self, hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            """Logit of "acceptable" from the hidden states at ``start_layer``."""
            attn = create_bidirectional_mask(config=self.config, inputs_embeds=hidden, attention_mask=mask)
            for layer in self.layers:
                out = layer(hidden, attention_mask=attn)
                hidden = out[0] if isinstance(out, tuple) else out
            with torch.autocast(hidden.device.type, enabled=False):  # pooling and head in float32 always
                hidden = hidden.float()
                weights = mask.unsqueeze(-1).to(hidden.dtype)
                pooled = self.dropout((hidden * weights).sum(1) / weights.sum(1).clamp(min=1.0))
                # the head as a row-wise dot product: a matrix product's rounding for one row can depend on
                # how many rows it multiplies, this cannot (GrammarClassifier.uncached_logits)
                return (pooled * self.head.weight[0]).sum(-1) + self.head.bias[0]

    return _Module()


def top_layers_from(base_model, n_layers: int, lora: dict | None = None):
    """Top ``n_layers`` copied from ``base_model`` (frozen when ``lora`` adds peft LoRA adapters)."""
    start = base_model.config.num_hidden_layers - n_layers
    module = build_top_layers(base_model.config, n_layers, start)
    for i in range(n_layers):
        module.layers[i].load_state_dict(base_model.encoder.layer[start + i].state_dict())
    if lora:
        from peft import LoraConfig, inject_adapter_in_model

        module = inject_adapter_in_model(LoraConfig(**lora), module)
        for param in module.head.parameters():
            param.requires_grad = True
    return module


def trainable_state(module) -> dict:
    """Only what training changed: LoRA adapters (or all top layers without LoRA) and the head."""
    state = module.state_dict()
    if not any("lora_" in k for k in state):
        return dict(state)
    return {k: v for k, v in state.items() if "lora_" in k or k.startswith("head.")}


def low_rank_delta(state: dict, base: dict, rank: int) -> dict:
    """Store fine-tuned layers as a rank-``rank`` SVD of their change from ``base`` (a few MB).

    Full fine-tuning learns more than LoRA here in the same CPU time, but a copy of six layers
    is ~21 MB; the truncated SVD of each weight matrix's change keeps the measured accuracy
    (docs/grammar.md) at an eighth of the size. Vectors (biases, LayerNorm) and the head are
    stored whole.
    """
    import torch

    if any(not key.startswith("layers.") for key in base):
        raise ValueError("low_rank_delta: base must hold only the pretrained layers (a random head "
                         "would not be the same at load time)")
    out = {}
    for key, value in state.items():
        if value.ndim == 2 and key in base and value.shape == base[key].shape:
            u, s, vh = torch.linalg.svd((value - base[key]).float(), full_matrices=False)
            out[f"{key}.delta_a"] = u[:, :rank] * s[:rank]
            out[f"{key}.delta_b"] = vh[:rank]
        else:
            out[key] = value
    return out


def apply_low_rank_delta(stored: dict, base: dict) -> dict:
    """The full state back from :func:`low_rank_delta`'s output and the same ``base``."""
    out = {}
    for key, value in stored.items():
        if key.endswith(".delta_a"):
            weight = key[: -len(".delta_a")]
            out[weight] = base[weight].float() + value.float() @ stored[f"{weight}.delta_b"].float()
        elif not key.endswith(".delta_b"):
            out[key] = value
    return out


def load_trainable_state(module, state: dict) -> None:
    missing = set(trainable_state(module)) - set(state)
    if missing:
        raise ResourceMissingError(f"grammar weights lack {sorted(missing)[0]}: retrain them")
    module.load_state_dict(state, strict=False)


def merge_lora(module) -> None:
    """Fold the adapters into the layer weights: inference then costs what plain layers cost."""
    from peft.tuners.lora import LoraLayer

    for sub in module.modules():
        if isinstance(sub, LoraLayer):
            sub.merge()


def start_states(encoder, texts: Sequence[str], layer: int) -> list[np.ndarray]:
    """Hidden states at ``layer``: the shared encoder's cached ones (keyed by the stripped text, as RoMe
    encodes it), or for layer 0 (every layer adapted) just the embedding layer over the encoder's own
    tokenisation, not a full forward pass."""
    if layer > 0:
        return [e.vectors for e in encoder.encode([t.strip() for t in texts], layer=layer)]
    import torch

    ids = [encoder._tokenize(text)[0] for text in texts]  # the encoder's tokenisation and truncation
    batch = torch.zeros((len(ids), max(len(i) for i in ids)), dtype=torch.long)
    for row, row_ids in enumerate(ids):
        batch[row, : len(row_ids)] = torch.tensor(row_ids)
    with torch.no_grad():  # one call for the batch: embeddings are per position, padding is cut off below
        hidden = encoder.model.embeddings(input_ids=batch).numpy()
    return [hidden[row, : len(row_ids)] for row, row_ids in enumerate(ids)]


def pad_hidden(vectors: Sequence[np.ndarray]):
    """Stack per-text ``(n_tokens, dim)`` arrays into a padded batch and its attention mask."""
    import torch

    width = max(len(v) for v in vectors)
    hidden = torch.zeros((len(vectors), width, vectors[0].shape[1]), dtype=torch.float32)
    mask = torch.zeros((len(vectors), width), dtype=torch.long)
    for row, vec in enumerate(vectors):
        hidden[row, : len(vec)] = torch.from_numpy(np.asarray(vec, dtype=np.float32))
        mask[row, : len(vec)] = 1
    return hidden, mask


class GrammarClassifier:
    """P(acceptable) from the shared encoder's layer ``start_layer`` plus fine-tuned top layers."""

    def __init__(self, module, start_layer: int, encoder=None, meta: dict | None = None,
                 batch_size: int = 64, precision: str | None = None) -> None:
        from rome.core.encoder import get_encoder

        precision = precision if precision is not None else default_precision()
        if precision not in PRECISIONS:
            raise InputError(f"grammar precision {precision!r}: expected {' or '.join(PRECISIONS)}")
        #: ``bfloat16``: the pass runs under torch's bfloat16 autocast (:func:`default_precision`)
        self.precision = precision
        self.module = module.eval()
        self.start_layer = start_layer
        self.encoder = encoder if encoder is not None else get_encoder()
        self.meta = meta or {}
        self.batch_size = batch_size
        #: the weights file it was loaded from (``None`` when built in memory, e.g. while training)
        self.weights_path: Path | None = None
        self._loaded_digest: str | None = None
        self._digest: tuple[tuple[tuple[int, int], ...], str] | None = None

    def fingerprint(self) -> str:
        """``<file>:<sha256 prefix>`` of the weights it was loaded from while its tensors are still those
        weights; once changed in memory (fine-tuned in a notebook) a digest of the tensors themselves."""
        digest = state_digest(self.module)
        if self.weights_path is not None and digest == self._loaded_digest:
            return weights_fingerprint(self.weights_path)
        return f"in-memory:{digest}"

    # -- loading ----------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path = DEFAULT_WEIGHTS, encoder=None, precision: str | None = None) -> GrammarClassifier:
        """Load committed weights (``.safetensors`` + the ``.json`` beside it); offline, fast."""
        from safetensors.torch import load_file
        from transformers import BertConfig

        from rome.core.encoder import embedded_model_path, get_encoder

        path = Path(path)
        meta_path = path.with_suffix(".json")
        if not path.exists() or not meta_path.exists():
            raise ResourceMissingError(
                f"grammar weights {path} (and {meta_path.name}) not found; train them with "
                "`python -m rome.training.grammar`"
            )
        meta = json.loads(meta_path.read_text())
        encoder = encoder if encoder is not None else get_encoder()
        if encoder.name != meta["base_model"]:
            raise ResourceMissingError(
                f"grammar weights {path.name} were trained on {meta['base_model']}, not {encoder.name}"
            )
        state = {k: v.float() for k, v in load_file(str(path)).items()}
        if meta.get("lora"):
            module = top_layers_from(encoder.model, meta["n_layers"], meta["lora"])
            load_trainable_state(module, state)
            merge_lora(module)
        elif meta.get("delta_rank"):
            module = top_layers_from(encoder.model, meta["n_layers"])
            module.load_state_dict(apply_low_rank_delta(state, module.state_dict()), strict=True)
        else:
            config = BertConfig.from_pretrained(str(embedded_model_path()))
            config._attn_implementation = "sdpa"
            module = build_top_layers(config, meta["n_layers"], meta["start_layer"])
            module.load_state_dict(state, strict=True)
        classifier = cls(module, meta["start_layer"], encoder=encoder, meta=meta, precision=precision)
        classifier.weights_path = path
        classifier._loaded_digest = state_digest(module)
        return classifier

    @staticmethod
    def from_pretrained(name_or_path: str, device: str = "cpu") -> HubGrammarClassifier:
        """A hub-hosted or local sequence-classification CoLA model (e.g. textattack/bert-base-uncased-CoLA)."""
        return HubGrammarClassifier(name_or_path, device=device)

    # -- scoring ----------------------------------------------------------------------
    def weights_digest(self) -> str:
        """:func:`state_digest` of the module, hashed again only when a tensor was replaced or changed in
        place since the last call (torch's version counters), so asking costs nothing between changes."""
        tensors = self.module.state_dict(keep_vars=True).values()
        versions = tuple((id(t), t._version) for t in tensors)
        if self._digest is None or self._digest[0] != versions:
            self._digest = (versions, state_digest(self.module))
        return self._digest[1]

    def _cache_key(self) -> str | None:
        """What the cached logits depend on: the weights, the layer they start from, the encoder below it and
        the precision; ``None`` (no caching) while the module is in training mode (dropout: not a function
        of text)."""
        if self.module.training:
            return None
        return f"{self.weights_digest()}|{self.start_layer}|{self.encoder.path}|{self.precision}"

    def logits(self, texts: Sequence[str]) -> np.ndarray:
        """Raw logits of "acceptable" (no empty-text rule), per text as the classifier reads it (stripped);
        each distinct text is run once per process and weights (:data:`_logit_cache`)."""
        texts = [t.strip() for t in texts]
        key = self._cache_key()
        found: dict[str, float] = {}
        if key is not None:
            with _logit_cache_lock:
                for text in dict.fromkeys(texts):
                    if (key, text) in _logit_cache:
                        _logit_cache.move_to_end((key, text))
                        found[text] = _logit_cache[(key, text)]
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            computed = self.uncached_logits(missing)
            found.update(zip(missing, computed.tolist()))
            if key is not None:
                with _logit_cache_lock:
                    for text, value in zip(missing, computed.tolist()):
                        _logit_cache[(key, text)] = value
                    while len(_logit_cache) > LOGIT_CACHE_SIZE:
                        _logit_cache.popitem(last=False)
        return np.array([found[t] for t in texts], dtype=np.float64)

    def uncached_logits(self, texts: list[str]) -> np.ndarray:
        """:meth:`logits` of stripped ``texts``, outside the cache: for a module whose weights cannot key it
        (a quantised copy under evaluation).

        Texts run in batches of equal token count, so none is padded: a text's logit is then the same
        whatever texts share its call, bitwise in bfloat16, to float32's rounding in float32
        (``tests/test_rome_grammar.py``). Padded, a text's bfloat16 probability moved by a few thousandths
        with the width its batch-mates imposed: enough for two runs whose chunks reached the classifier in
        other company (worker processes, the cache) to print different figures."""
        import torch

        out = np.zeros(len(texts), dtype=np.float64)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        low = self.precision == "bfloat16"
        # one autocast region for every batch: each weight is cast to bfloat16 once per call, not per batch
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=low):
            for start in range(0, len(order), WINDOW):  # states of a window of texts at a time: bounded memory
                window = order[start : start + WINDOW]
                states = [state for first in range(0, len(window), self.batch_size)  # embedded a batch at a time
                          for state in start_states(self.encoder, [texts[i] for i in window[first : first + self.batch_size]],
                                                    self.start_layer)]
                by_length: dict[int, list[int]] = {}
                for row, vectors in enumerate(states):
                    by_length.setdefault(len(vectors), []).append(row)
                for rows in by_length.values():
                    for first in range(0, len(rows), self.batch_size):
                        batch = rows[first : first + self.batch_size]
                        hidden = torch.from_numpy(np.stack([states[r] for r in batch]).astype(np.float32))
                        mask = torch.ones(hidden.shape[:2], dtype=torch.long)
                        out[[window[r] for r in batch]] = self.module(hidden, mask).double().numpy()
        return out

    def prob_acceptable(self, texts: Sequence[str]) -> np.ndarray:
        """P(acceptable) in [0, 1] per text; :data:`EMPTY_TEXT_PROB` for empty texts."""
        texts = _texts(texts)
        probs = np.full(len(texts), EMPTY_TEXT_PROB, dtype=np.float64)
        keep = [i for i, t in enumerate(texts) if t.strip()]
        if keep:
            logits = self.logits([texts[i] for i in keep])
            probs[keep] = 1.0 / (1.0 + np.exp(-logits))
        return probs

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return self.prob_acceptable(texts)


class HubGrammarClassifier:
    """A user-named sequence-classification model; label "acceptable" found from its config.

    When the config's labels are generic (``LABEL_0``/``LABEL_1``), index 1 is taken as
    acceptable, as in CoLA's own labelling (1 = acceptable), which GLUE-trained checkpoints keep.
    """

    def __init__(self, name_or_path: str, device: str = "cpu", batch_size: int = 32) -> None:
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        from rome.core.hub import from_pretrained

        try:
            self.tokenizer = from_pretrained(AutoTokenizer, name_or_path)
            model = from_pretrained(AutoModelForSequenceClassification, name_or_path)
        except (OSError, ValueError) as exc:
            raise ResourceMissingError(
                f"grammar model {name_or_path!r} is not available locally (offline?); "
                "omit it to use the embedded CoLA classifier"
            ) from exc
        self.model = model.eval().to(device)
        self.device = device
        self.batch_size = batch_size
        self.acceptable_index = self._acceptable_index(model.config)
        self.name = str(name_or_path)
        self._fingerprint: str | None = None

    def fingerprint(self) -> str:
        """The model's name and a digest of its weights (computed once): a retrained model signs differently."""
        if self._fingerprint is None:
            self._fingerprint = f"{Path(self.name).name}:{state_digest(self.model)}"
        return self._fingerprint

    @staticmethod
    def _acceptable_index(config) -> int:
        labels = {int(i): str(name).lower() for i, name in (config.id2label or {}).items()}
        for i, name in labels.items():
            if name in ("acceptable", "grammatical", "correct") or name.startswith("accept"):
                return i
        return 1 if len(labels) >= 2 else 0

    def prob_acceptable(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        texts = _texts(texts)
        probs = np.full(len(texts), EMPTY_TEXT_PROB, dtype=np.float64)
        keep = [i for i, t in enumerate(texts) if t.strip()]
        for start in range(0, len(keep), self.batch_size):
            idx = keep[start : start + self.batch_size]
            batch = self.tokenizer([texts[i].strip() for i in idx], padding=True, truncation=True,
                                   return_tensors="pt").to(self.device)
            with torch.no_grad():
                logits = self.model(**batch).logits.float()
            if logits.shape[-1] == 1:
                p = torch.sigmoid(logits[:, 0])
            else:
                p = torch.softmax(logits, dim=-1)[:, self.acceptable_index]
            probs[idx] = p.double().cpu().numpy()
        return probs

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        return self.prob_acceptable(texts)


def weights_fingerprint(path: str | Path = DEFAULT_WEIGHTS) -> str:
    """``<file>:<sha256 prefix>`` of a weights file and its ``.json``, without loading the model."""
    from rome.core.fingerprint import files_digest

    path = Path(path)
    return f"{path.name}:{files_digest([path, path.with_suffix('.json')])}"


def state_digest(module) -> str:
    """sha256 prefix over a torch module's parameters and buffers (names, shapes, values)."""
    import hashlib

    digest = hashlib.sha256()
    for name, tensor in sorted(module.state_dict().items()):
        digest.update(name.encode() + str(tuple(tensor.shape)).encode())
        digest.update(tensor.detach().float().cpu().numpy().tobytes())
    return digest.hexdigest()[:12]


def load_default(precision: str | None = None) -> GrammarClassifier:
    """The committed classifier over the shared embedded encoder, one per process and precision
    (:func:`default_precision` when ``None``)."""
    return _committed(precision if precision is not None else default_precision())


@lru_cache(maxsize=len(PRECISIONS))
def _committed(precision: str) -> GrammarClassifier:
    return GrammarClassifier.load(DEFAULT_WEIGHTS, precision=precision)
