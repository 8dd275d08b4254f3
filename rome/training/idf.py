"""Build RoMe's general-English document frequencies: ``python -m rome.training.idf``.

RoMe weighs each word by its sentence-level TF-IDF (paper §2.1). Fitted on the pair's own two
sentences, idf gives every word the two texts do not share *more* weight than a shared one,
whatever the word: the ``is`` and ``by`` a passive adds outweighed the shared content words,
and a function-word change weighed like an entity change. A fixed table from general English
text instead gives function words a low idf and rare words (names, numbers, content words) a
high one, the same for every pair.

Documents: every gloss and usage example of WordNet 3.0 (Debian's copy, already installed for
METEOR; 165,998 short texts), tokenised with spaCy's English tokenizer (the same token rules
as RoMe's words) and lower-cased. No evaluation text (BAGEL, SFHOTEL, SFREST, DEMETR) is used.
Terms seen in fewer than two documents are left out (they get the unseen-term idf).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from rome.core.files import refuse_unusable_folder, write_text_whole
from rome.core.paths import trained_dir
from rome.metric.semantic import GENERAL_IDF_PATH


def wordnet_documents() -> list[str]:
    """Every synset's gloss and usage examples, in WordNet's own order (deterministic)."""
    from rome.core.nltk_data import wordnet

    docs: list[str] = []
    for synset in wordnet().all_synsets():
        docs.append(synset.definition())
        docs.extend(synset.examples())
    return docs


def document_frequencies(docs: list[str]) -> Counter[str]:
    import spacy

    tokenizer = spacy.blank("en").tokenizer
    df: Counter[str] = Counter()
    for doc in tokenizer.pipe(docs, batch_size=2000):
        df.update({t.text.lower() for t in doc if not t.is_space})
    return df


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None,
                        help=f"output file (default: <cache>/trained/{GENERAL_IDF_PATH.name}; "
                             f"rome/metric/weights/{GENERAL_IDF_PATH.name} to ship it)")
    parser.add_argument("--min-df", type=int, default=2)
    args = parser.parse_args(argv)
    args.out = args.out or trained_dir(GENERAL_IDF_PATH.name)  # never the package by default
    refuse_unusable_folder(args.out.parent)
    start = time.time()
    docs = wordnet_documents()
    df = document_frequencies(docs)
    kept = {term: count for term, count in sorted(df.items()) if count >= args.min_df}
    write_text_whole(args.out, json.dumps({"source": "WordNet 3.0 glosses and usage examples", "n_docs": len(docs),
                                           "min_df": args.min_df, "df": kept}, separators=(",", ":")) + "\n")
    print(f"{len(docs)} documents, {len(kept)} terms -> {args.out} in {time.time() - start:.0f} s; RoMe reads the "
          f"shipped table until this one is shipped (--out rome/metric/weights/{GENERAL_IDF_PATH.name} in a checkout)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
