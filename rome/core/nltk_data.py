"""Offline NLTK data: WordNet 3.0 from Debian's ``wordnet-base`` package, no downloader.

nltk's downloader cannot reach its server here, and nltk 3.10 refuses symlinks that leave
its data root, so the Debian files are *copied* into an NLTK data directory and the one
file Debian does not ship (``lexnames``) is generated. textattack and pattern (checklist)
also look for a stop-word list, ``wordnet_ic`` and ``sentiwordnet`` at import; small
stand-ins are written for them (they are never used for scoring).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from rome.core.errors import ResourceMissingError

DEBIAN_WORDNET = Path("/usr/share/wordnet")
_WORDNET_FILES = ["adj.exc", "adv.exc", "noun.exc", "verb.exc", "cntlist", "cntlist.rev", "data.adj", "data.adv", "data.noun", "data.verb", "index.adj", "index.adv", "index.noun", "index.verb", "index.sense", "frames.vrb", "sentidx.vrb", "sents.vrb"]

#: WordNet's 45 lexicographer files (lexnames(5WN)): name and syntactic category.
_LEXNAMES = (
    [("adj.all", 3), ("adj.pert", 3), ("adv.all", 4)]
    + [
        (f"noun.{n}", 1)
        for n in ["Tops", "act", "animal", "artifact", "attribute", "body", "cognition", "communication", "event", "feeling", "food", "group", "location", "motive", "object", "person", "phenomenon", "plant", "possession", "process", "quantity", "relation", "shape", "state", "substance", "time"]
    ]
    + [
        (f"verb.{n}", 2)
        for n in ["body", "change", "cognition", "communication", "competition", "consumption", "contact", "creation", "emotion", "motion", "perception", "possession", "social", "stative", "weather"]
    ]
    + [("adj.ppl", 3)]
)


def data_dir() -> Path:
    """Where rome-harness keeps its NLTK data (``ROME_NLTK_DATA`` overrides)."""
    default = Path.home() / ".cache" / "rome-harness" / "nltk_data"
    return Path(os.environ.get("ROME_NLTK_DATA", default)).expanduser()


def lexnames_text() -> str:
    return "".join(f"{i:02d}\t{name}\t{cat}\n" for i, (name, cat) in enumerate(_LEXNAMES))


def prepare(target: Path | None = None, source: Path = DEBIAN_WORDNET) -> Path:
    """Copy Debian's WordNet into ``target`` (idempotent) and write the stand-in files."""
    target = target or data_dir()
    wordnet = target / "corpora" / "wordnet"
    if not (wordnet / "lexnames").exists():
        if not (source / "data.noun").exists() or not (source / "index.sense").exists():
            raise ResourceMissingError(
                f"WordNet 3.0 files not found in {source}; install them with "
                "`apt-get install -y wordnet-base wordnet-sense-index` (see README)"
            )
        wordnet.mkdir(parents=True, exist_ok=True)
        for name in _WORDNET_FILES:
            if (source / name).exists():
                shutil.copyfile(source / name, wordnet / name)
        (wordnet / "lexnames").write_text(lexnames_text())
    _write_stand_ins(target)
    return target


def _write_stand_ins(target: Path) -> None:
    stop = target / "corpora" / "stopwords" / "english"
    if not stop.exists():
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        stop.parent.mkdir(parents=True, exist_ok=True)
        stop.write_text("\n".join(sorted(ENGLISH_STOP_WORDS)) + "\n")
    ic = target / "corpora" / "wordnet_ic" / "ic-brown.dat"
    if not ic.exists():
        ic.parent.mkdir(parents=True, exist_ok=True)
        # root synsets entity.n.01 (00001740) and a verb root with unit counts: enough for
        # pattern's import-time check; information content is not used by this project.
        ic.write_text("wnver::eOS9lXC6GvMWznF1wkZofDdtbBU\n1740n 1.0 ROOT\n1740v 1.0 ROOT\n")
    (target / "corpora" / "sentiwordnet").mkdir(parents=True, exist_ok=True)


_ready = False


def ensure() -> Path:
    """Make nltk find WordNet offline, preparing the data directory on first use."""
    global _ready
    target = prepare()
    if not _ready:
        import nltk

        if str(target) not in nltk.data.path:
            nltk.data.path.insert(0, str(target))
        os.environ.setdefault("NLTK_DATA", str(target))
        _ready = True
    return target


def wordnet():
    """The nltk WordNet corpus reader, loaded from the offline copy."""
    ensure()
    from nltk.corpus import wordnet as wn

    wn.ensure_loaded()
    return wn


if __name__ == "__main__":  # ``python -m rome.core.nltk_data``: prepare the data dir (set-up step)
    print(f"NLTK data ready in {prepare()}")
