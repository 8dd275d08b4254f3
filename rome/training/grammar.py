"""Train RoMe's grammatical-acceptability classifier on CoLA: ``python -m rome.training.grammar``.

Recipe (why): the embedded all-MiniLM-L6-v2's top ``k`` layers (default: all 6) plus a
logistic head over mean-pooled tokens, trained with binary cross-entropy as in the paper, in
two stages:

1. ``--pretrain-epochs`` (default 1) of self-supervised "intact or damaged?" on WordNet's usage
   examples and CoLA-train's acceptable sentences, each with one damaged copy
   (:mod:`rome.training.grammar_corruptions`): it gives the similarity-tuned encoder back a sense of
   word order and agreement;
2. ``--epochs`` (default 4) on CoLA's training split.

Both stages fine-tune fully (``--lora-rank k`` trains peft LoRA adapters instead, which learned
less in the same time); the saved file holds the head and a rank-``--delta-rank`` SVD of each
weight matrix's change (fp16, about 2.7 MB). The frozen embedding-layer states are computed
once per sentence and batches are grouped by length, so the whole run took 11.9 minutes on
this project's 2-core CPU (docs/grammar.md).

Model selection never looks at CoLA's dev sets: a seeded, stratified 10 % of
``in_domain_train`` is held out, the epoch with the best hold-out MCC is kept, and the dev
sets (in-domain and out-of-domain) are only measured at the end, from the saved fp16 file.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from rome.core.files import refuse_unusable_folder, write_text_whole
from rome.core.paths import trained_dir
from rome.data.cola import read_cola
from rome.metric.grammar import (
    DEFAULT_WEIGHTS,
    PRECISIONS,
    GrammarClassifier,
    low_rank_delta,
    pad_hidden,
    start_states,
    top_layers_from,
    trainable_state,
)


def binary_metrics(labels: np.ndarray, probs: np.ndarray, threshold: float = 0.5) -> dict:
    """Accuracy and Matthews correlation of ``probs >= threshold`` against ``labels``."""
    from sklearn.metrics import matthews_corrcoef

    pred = (np.asarray(probs) >= threshold).astype(int)
    return {"n": int(len(labels)), "accuracy": round(float((pred == labels).mean()), 4),
            "mcc": round(float(matthews_corrcoef(labels, pred)), 4)}


def stratified_holdout(labels: np.ndarray, fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(train, holdout)``: ``fraction`` of each class held out, seeded."""
    rng = np.random.default_rng(seed)
    held = []
    for cls in np.unique(labels):
        idx = np.flatnonzero(labels == cls)
        held.extend(rng.choice(idx, size=round(fraction * len(idx)), replace=False))
    mask = np.zeros(len(labels), dtype=bool)
    mask[held] = True
    return np.flatnonzero(~mask), np.flatnonzero(mask)


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)


def features(encoder, texts: list[str], layer: int, cache: Path | None = None) -> list[np.ndarray]:
    """Frozen hidden states at ``layer`` for every text (one forward pass each).

    ``cache`` (a ``.npz`` file) keeps them between runs, keyed by the layer and the texts' hash.
    """
    key = hashlib.sha256("\n".join([encoder.path, str(layer), *texts]).encode()).hexdigest()
    if cache is not None and cache.exists():
        stored = np.load(cache)
        if str(stored["key"]) == key:
            return np.split(stored["vectors"], np.cumsum(stored["lengths"])[:-1])
    feats = start_states(encoder, texts, layer)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, key=key, vectors=np.concatenate(feats), lengths=[len(f) for f in feats])
    return feats


def lora_config(args) -> dict | None:
    """peft LoRA settings for every linear map of the trained layers (``None``: full fine-tuning)."""
    if args.lora_rank <= 0:
        return None
    return {"r": args.lora_rank, "lora_alpha": 2 * args.lora_rank, "lora_dropout": 0.1,
            "target_modules": ["query", "key", "value", "dense"]}


def predict_logits(module, feats: list[np.ndarray], batch_size: int = 128) -> np.ndarray:
    import torch

    module.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(feats), batch_size):
            hidden, mask = pad_hidden(feats[start : start + batch_size])
            out.append(module(hidden, mask).numpy())
    return np.concatenate(out)


def length_buckets(feats: list[np.ndarray], batch_size: int, generator) -> list[list[int]]:
    """Seeded batches of similar length (less padding: about 2x faster on CPU), in random order."""
    import torch

    order = torch.randperm(len(feats), generator=generator).tolist()
    chunk = batch_size * 50
    batches = []
    for start in range(0, len(order), chunk):
        part = sorted(order[start : start + chunk], key=lambda i: len(feats[i]))
        batches.extend(part[b : b + batch_size] for b in range(0, len(part), batch_size))
    return [batches[i] for i in torch.randperm(len(batches), generator=generator).tolist()]


def consistency_loss(module, pairs, batch: list[int]):
    """Mean squared difference of the log-odds of each (text, grammar-keeping copy) pair in ``batch``."""
    left, right = pairs
    hidden, mask = pad_hidden([left[i] for i in batch] + [right[i] for i in batch])
    logits = module(hidden, mask)
    return ((logits[: len(batch)] - logits[len(batch):]) ** 2).mean()


def train(module, feats, labels, holdout_feats, holdout_labels, args, epochs: int, lr: float,
          stage: str = "cola", pairs=None) -> tuple[dict, list[dict]]:
    """Mini-batch AdamW with linear warm-up/decay; returns the best state (hold-out MCC) and a log.

    ``pairs`` (frozen features of texts and their grammar-keeping copies,
    :mod:`rome.training.grammar_invariance`): each step also draws ``batch_size // 2`` pairs and
    adds ``args.consistency`` times the squared difference of their log-odds to the loss.
    """
    import torch

    params = [p for p in module.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    steps = epochs * ((len(feats) + args.batch_size - 1) // args.batch_size)
    warmup = int(0.06 * steps)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / max(warmup, 1), max(0.0, (steps - s) / max(steps - warmup, 1)))
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    generator = torch.Generator().manual_seed(args.seed)
    best, log = None, []
    for epoch in range(1, epochs + 1):
        module.train()
        started, total = time.time(), 0.0
        for idx in length_buckets(feats, args.batch_size, generator):
            hidden, mask = pad_hidden([feats[i] for i in idx])
            target = torch.tensor(labels[idx], dtype=torch.float32)
            loss = loss_fn(module(hidden, mask), target)
            if pairs is not None and args.consistency > 0:
                drawn = torch.randint(len(pairs[0]), (args.batch_size // 2,), generator=generator).tolist()
                loss = loss + args.consistency * consistency_loss(module, pairs, drawn)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(idx)
        probs = 1 / (1 + np.exp(-predict_logits(module, holdout_feats)))
        row = {"stage": stage, "epoch": epoch, "train_loss": round(total / len(feats), 4),
               "seconds": round(time.time() - started, 1), "holdout": binary_metrics(holdout_labels, probs)}
        log.append(row)
        print(json.dumps(row), flush=True)
        if best is None or row["holdout"]["mcc"] > best["holdout"]["mcc"]:
            best = {**row, "state": {k: v.detach().clone() for k, v in trainable_state(module).items()}}
    return best, log


def save(module_state: dict, meta: dict, path: Path) -> None:
    from safetensors.torch import save_file

    from rome.core.files import replaced_path_when_complete

    with replaced_path_when_complete(path) as tmp:
        save_file({k: v.detach().half().contiguous() for k, v in module_state.items()}, str(tmp))
    write_text_whole(path.with_suffix(".json"), json.dumps(meta, indent=2) + "\n")


def evaluate(path: Path, int8: bool = False, precision: str = "float32") -> dict:
    """Accuracy and MCC of the saved classifier on CoLA's in-domain and out-of-domain dev sets, its pass in
    ``precision`` (float32, the weights' record, the same on every machine; ``bfloat16``, what RoMe runs
    where the CPU multiplies it natively); ``int8``: with its linear layers quantised (torch's dynamic int8), a faster
    pass whose accuracy was measured and not kept (docs/grammar.md)."""
    classifier = GrammarClassifier.load(path, precision=precision)
    if int8:
        import torch
        from torch.ao.quantization import quantize_dynamic

        classifier.module = quantize_dynamic(classifier.module, {torch.nn.Linear}, dtype=torch.qint8)
    results = {}
    for split in ("in_domain_dev", "out_of_domain_dev"):
        texts, labels = read_cola(split)
        # (a quantised module has no plain tensors to key the logit cache by: its pass is read directly)
        probs = (1 / (1 + np.exp(-classifier.uncached_logits([t.strip() for t in texts]))) if int8
                 else classifier.prob_acceptable(texts))
        results[split] = binary_metrics(labels, probs)
        results[split]["majority_accuracy"] = round(float(labels.mean()), 4)
    return results


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m rome.training.grammar", description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=6, help="top encoder layers to fine-tune")
    parser.add_argument("--epochs", type=int, default=4, help="epochs on CoLA")
    parser.add_argument("--lr", type=float, default=8e-5)
    parser.add_argument("--pretrain-epochs", type=int, default=1, help="epochs of intact-or-damaged (0: none)")
    parser.add_argument("--pretrain-lr", type=float, default=8e-5)
    parser.add_argument("--pretrain-wordnet", type=int, default=15_000,
                        help="at most this many WordNet usage examples as clean pre-training texts")
    parser.add_argument("--consistency", type=float, default=1.0,
                        help="weight of the log-odds difference of grammar-keeping copies (0: off)")
    parser.add_argument("--lora-rank", type=int, default=0, help="k > 0: LoRA adapters instead of full fine-tuning")
    parser.add_argument("--delta-rank", type=int, default=32, help="SVD rank of the stored layer changes")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--holdout", type=float, default=0.1, help="fraction of train held out for selection")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None,
                        help=f"weights file (default: <cache>/trained/grammar/{DEFAULT_WEIGHTS.name}; "
                             f"rome/metric/weights/{DEFAULT_WEIGHTS.name} to ship them; with --evaluate-only "
                             "the shipped ones)")
    parser.add_argument("--feature-cache", type=Path, help=".npz file keeping the frozen features between runs")
    parser.add_argument("--evaluate-only", action="store_true", help="only measure the weights at --out")
    parser.add_argument("--int8", action="store_true", help="with --evaluate-only: measure them quantised to int8")
    parser.add_argument("--precision", choices=PRECISIONS, default="float32",
                        help="with --evaluate-only: the pass's precision (bfloat16: as RoMe runs it where the "
                             "CPU multiplies bfloat16 natively)")
    args = parser.parse_args(argv)
    if (args.int8 or args.precision != "float32") and not args.evaluate_only:
        parser.error("--int8 and --precision measure saved weights: use it with --evaluate-only")
    if args.out is None:  # never the installed package by default: that is a maintainer's explicit --out
        args.out = DEFAULT_WEIGHTS if args.evaluate_only else trained_dir("grammar") / DEFAULT_WEIGHTS.name
    refuse_unusable_folder(args.out.parent)  # before the training, not after
    return args


def pretraining_data(tagged, args) -> tuple[list[str], np.ndarray]:
    """Intact/damaged pairs from the tagged clean texts (:func:`tagged_clean_texts`)."""
    from rome.training.grammar_corruptions import damaged_pairs

    texts, labels = damaged_pairs(tagged, args.seed)
    return texts, np.array(labels, dtype=np.int64)


def tagged_clean_texts(cola_texts: list[str], cola_labels: np.ndarray, train_idx: np.ndarray, args):
    """CoLA-train's acceptable sentences (hold-out excluded) and WordNet usage examples, seeded order,
    tagged once for both the damage of the pre-training stage and the consistency pairs."""
    from rome.training.grammar_corruptions import tag, wordnet_examples

    examples = wordnet_examples()
    random.Random(args.seed).shuffle(examples)
    return tag([cola_texts[i] for i in train_idx if cola_labels[i] == 1] + examples[: args.pretrain_wordnet])


def consistency_pairs(encoder, tagged, layer: int, args):
    """Frozen features of (clean text, grammar-keeping copy) pairs for the consistency loss."""
    from rome.training.grammar_invariance import swap_pairs

    pairs = swap_pairs(tagged, args.seed)
    print(f"consistency pairs: {len(pairs)}", flush=True)
    return features(encoder, [a for a, _ in pairs], layer), features(encoder, [b for _, b in pairs], layer)


def main(argv: list[str] | None = None) -> int:
    import torch

    from rome.core.encoder import Encoder

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.evaluate_only:
        print(json.dumps(evaluate(args.out, int8=args.int8, precision=args.precision), indent=2))
        return 0
    seed_everything(args.seed)
    started = time.time()
    texts, labels = read_cola("train")
    train_idx, held_idx = stratified_holdout(labels, args.holdout, args.seed)
    encoder = Encoder(None, cache_size=16)
    lora = lora_config(args)
    module = top_layers_from(encoder.model, args.layers, lora)
    # the pretrained layers only: the head starts random, so it is stored whole, never as a delta
    base_state = {k: v.detach().clone() for k, v in module.state_dict().items() if k.startswith("layers.")}
    start = encoder.num_layers - args.layers
    feats = features(encoder, texts, start, args.feature_cache)
    held = ([feats[i] for i in held_idx], labels[held_idx])
    uses_clean = args.consistency > 0 or args.pretrain_epochs > 0
    tagged = tagged_clean_texts(texts, labels, train_idx, args) if uses_clean else []
    pairs = consistency_pairs(encoder, tagged, start, args) if args.consistency > 0 else None
    log: list[dict] = []
    n_pretrain = 0
    if args.pretrain_epochs > 0:
        pre_texts, pre_labels = pretraining_data(tagged, args)
        n_pretrain = len(pre_texts)
        print(f"pre-training texts: {n_pretrain} ({time.time() - started:.0f}s)", flush=True)
        _, pre_log = train(module, features(encoder, pre_texts, start), pre_labels, *held, args,
                           args.pretrain_epochs, args.pretrain_lr, stage="pretrain", pairs=pairs)
        log += pre_log
    best, cola_log = train(module, [feats[i] for i in train_idx], labels[train_idx], *held, args,
                           args.epochs, args.lr, pairs=pairs)
    log += cola_log
    state = best["state"] if lora else low_rank_delta(best["state"], base_state, args.delta_rank)
    meta = {
        "base_model": encoder.name, "n_layers": args.layers, "start_layer": start, "pooling": "mean",
        "lora": lora, "delta_rank": None if lora else args.delta_rank,
        # the settings that shape the weights; where they were written (a machine's path) is not one
        "train": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()
                  if k not in ("out", "feature_cache", "evaluate_only")},
        "train_sentences": int(len(train_idx)), "holdout_sentences": int(len(held_idx)),
        "pretrain_texts": n_pretrain, "selected_epoch": best["epoch"], "log": log,
        "minutes": round((time.time() - started) / 60, 1),
        "trained_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
    }
    save(state, meta, args.out)
    meta["dev"] = evaluate(args.out)
    write_text_whole(args.out.with_suffix(".json"), json.dumps(meta, indent=2) + "\n")
    print(json.dumps(meta["dev"], indent=2))
    print(f"wrote {args.out}; RoMe reads the shipped classifier until this one is shipped (--out "
          f"rome/metric/weights/{DEFAULT_WEIGHTS.name} in a checkout) or loaded (GrammarClassifier.load(PATH))",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
