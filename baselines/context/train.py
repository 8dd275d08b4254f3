"""Train the context model's masked-LM head: ``python -m baselines.context.train`` (seeded, CPU or GPU).

all-mpnet-base-v2 ships without the masked-LM head of its pre-training, so one is trained here on the
frozen encoder: each training sentence is encoded once with 15 % of its word pieces masked, the hidden
states at the masked positions (layer :data:`DEFAULT_LAYER`) are kept, and the head learns to predict
the masked pieces from them. Its decoder is tied to MPNet's input embeddings and never trained, so
only the dense layer, the layer norm and the output bias are learnt (about 0.6 M parameters).

Training text is general English that no corpus of the project draws from: the glosses and example
sentences of WordNet 3.0 (Debian's ``wordnet-base``) and the acceptable sentences of CoLA's in-domain
training split. Held out and reported (masked-piece top-1 / top-5, against always guessing the
training set's most frequent pieces): CoLA's two dev sets (acceptable sentences) and the glosses and
examples of a seeded 5 % of WordNet's synsets; ``--eval FILE`` adds any JSONL of ``{"text"}`` lines
(e.g. the WMT 2021 news sentences, measured on but never trained on). The weights and a card with the
figures are written to ``<cache>/trained/context/`` (:func:`rome.core.paths.trained_dir`) or ``--out``;
the context model reads the shipped head (``baselines/context/weights/``) unless given another
(``ContextModel(head=PATH)``), and shipping a new head is the maintainer's ``--out baselines/context/weights``
in a checkout.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
from pathlib import Path

from baselines.context.files import encoder_dir
from baselines.context.model import HEAD_CARD, HEAD_FILE, make_head
from rome.core.files import refuse_unusable_folder, replaced_path_when_complete, write_text_whole
from rome.core.paths import trained_dir

DEFAULT_LAYER = 6
MASK_RATE = 0.15
HELD_OUT_SYNSETS = 0.05
MAX_PIECES = 64


def wordnet_texts(seed: int) -> tuple[list[str], list[str]]:
    """(training, held-out) texts from WordNet's glosses and examples, split by synset."""
    from rome.core import nltk_data

    wordnet = nltk_data.wordnet()
    train, held = [], []
    rng = random.Random(seed)
    for synset in sorted(wordnet.all_synsets(), key=lambda s: s.name()):
        texts = [synset.definition(), *synset.examples()]
        texts = [t.strip() for t in texts if len(t.split()) >= 4]
        (held if rng.random() < HELD_OUT_SYNSETS else train).extend(texts)
    return train, held


def cola_texts(split: str) -> list[str]:
    from rome.data.cola import read_cola

    sentences, labels = read_cola(split)
    return [s for s, label in zip(sentences, labels) if label == 1]


def masked_states(model, tokenizer, texts: list[str], layer: int, seed: int, batch_size: int = 64,
                  progress: str = ""):
    """(hidden states at the masked positions, their pieces): one pass per text, 15 % masked."""
    import torch

    rng = random.Random(seed)
    states, targets = [], []
    started = time.time()
    texts = sorted(texts, key=len)  # batches of similar length: little padding
    for b in range(0, len(texts), batch_size):
        enc = tokenizer(texts[b : b + batch_size], return_tensors="pt", padding=True, truncation=True,
                        max_length=MAX_PIECES)
        ids = enc.input_ids.clone()
        rows, cols = [], []
        for r in range(ids.shape[0]):
            inner = list(range(1, int(enc.attention_mask[r].sum()) - 1))
            if not inner:
                continue
            for c in rng.sample(inner, max(1, round(MASK_RATE * len(inner)))):
                rows.append(r)
                cols.append(c)
        rows_t, cols_t = torch.tensor(rows), torch.tensor(cols)
        targets.append(ids[rows_t, cols_t].clone())
        ids[rows_t, cols_t] = tokenizer.mask_token_id
        with torch.inference_mode():
            out = model(input_ids=ids.to(model.device), attention_mask=enc.attention_mask.to(model.device))
        states.append(out.last_hidden_state[rows_t, cols_t].float().cpu())
        if progress and (b // batch_size) % 50 == 0:
            print(f"{progress}: {b + len(enc.input_ids)}/{len(texts)} texts, {time.time() - started:.0f} s",
                  file=sys.stderr, flush=True)
    return torch.cat(states), torch.cat(targets)


def accuracy(head, states, targets, baseline: list[int]) -> dict:
    import torch

    with torch.inference_mode():
        top = torch.cat([head(states[i : i + 1024]).topk(5).indices for i in range(0, len(states), 1024)])
    guess = torch.tensor(baseline)
    return {"pieces": len(targets),
            "top1": round(float((top[:, 0] == targets).float().mean()), 4),
            "top5": round(float((top == targets[:, None]).any(1).float().mean()), 4),
            "unigram_top1": round(float((targets == guess[0]).float().mean()), 4),
            "unigram_top5": round(float(torch.isin(targets, guess).float().mean()), 4)}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m baselines.context.train", description=__doc__.splitlines()[0])
    parser.add_argument("--layer", type=int, default=DEFAULT_LAYER, help="encoder layer the head reads")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=0, help="use only this many training texts (0: all)")
    parser.add_argument("--eval", action="append", default=[], type=Path, help="JSONL of {\"text\"} to report on")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the head and its card (default: <cache>/trained/context; "
                             "baselines/context/weights to ship it)")
    args = parser.parse_args(argv)
    args.out = args.out or trained_dir("context")  # never the installed package by default
    refuse_unusable_folder(args.out)  # before hours of training, not after
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)

    import torch
    from safetensors.torch import save_file
    from transformers import AutoTokenizer, MPNetModel

    from rome.core.jsonl import read_jsonl

    torch.manual_seed(args.seed)
    path = encoder_dir()
    tokenizer = AutoTokenizer.from_pretrained(str(path))
    model = MPNetModel.from_pretrained(str(path), add_pooling_layer=False)
    model.encoder.layer = model.encoder.layer[: args.layer]
    model = model.to(args.device).eval()

    wn_train, wn_held = wordnet_texts(args.seed)
    texts = wn_train + cola_texts("train")
    random.Random(args.seed).shuffle(texts)
    if args.limit:
        texts = texts[: args.limit]
    states, targets = masked_states(model, tokenizer, texts, args.layer, args.seed, progress="train")
    counts = collections.Counter(targets.tolist())
    baseline = [piece for piece, _ in counts.most_common(5)]

    embeddings = model.embeddings.word_embeddings.weight.detach()
    head = make_head(embeddings).to(args.device)
    optimiser = torch.optim.AdamW(head.parameters(), lr=2e-3,
                                  weight_decay=0.01)
    generator = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        order = torch.randperm(len(states), generator=generator)
        total = 0.0
        for b in range(0, len(order), 512):
            batch = order[b : b + 512]
            loss = torch.nn.functional.cross_entropy(head(states[batch].to(args.device)), targets[batch].to(args.device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(batch)
        print(f"epoch {epoch + 1}: loss {total / len(order):.3f}", file=sys.stderr, flush=True)
    head = head.cpu().eval()

    held_out = {"cola_in_domain_dev": cola_texts("in_domain_dev"),
                "cola_out_of_domain_dev": cola_texts("out_of_domain_dev"),
                "wordnet_held_out": wn_held}
    for file in args.eval:
        held_out[file.stem] = [row["text"] for _, row in read_jsonl(file)]
    report = {}
    for name, held in held_out.items():
        s, t = masked_states(model, tokenizer, held, args.layer, args.seed + 1)
        report[name] = accuracy(head, s, t, baseline)
        print(name, report[name], file=sys.stderr, flush=True)

    args.out.mkdir(parents=True, exist_ok=True)
    with replaced_path_when_complete(args.out / HEAD_FILE) as tmp:
        save_file({k: v.contiguous() for k, v in head.state_dict().items()}, str(tmp))
    card = {"encoder": "all-mpnet-base-v2", "layer": args.layer, "seed": args.seed, "epochs": args.epochs,
            "mask_rate": MASK_RATE, "training_texts": len(texts), "training_pieces": len(targets),
            "trained_on": "WordNet 3.0 glosses and examples (95 % of synsets), CoLA in-domain train (acceptable)",
            "held_out": report, "command": "python -m baselines.context.train " + " ".join(
                Path(a).name if Path(a).is_file() else a for a in (argv or sys.argv[1:]))}
    write_text_whole(args.out / HEAD_CARD, json.dumps(card, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    print(f"wrote {args.out / HEAD_FILE} and its card; the context model reads the shipped head until this one "
          "is shipped (--out baselines/context/weights in a checkout) or passed (ContextModel(head=PATH))",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
