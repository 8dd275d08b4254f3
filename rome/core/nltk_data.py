"""Offline WordNet 3.0 from Debian's ``wordnet-base`` package, in the project's own NLTK data directory.

nltk's downloader cannot reach its server here, and nltk 3.10 refuses symlinks that leave
its data root, so the Debian files are *copied* into the project's NLTK data directory
(:func:`data_dir`, in the user's cache, never one of NLTK's own folders) and the one file Debian
does not ship (``lexnames``) is generated. :func:`wordnet` reads that copy through a reader of its
own; nltk's path sandbox reads a corpus only below a folder on ``nltk.data.path``, so the directory
is *appended* there (:func:`register`), after the user's folders: a user's own NLTK data is still
found first, and the directory holds real WordNet only.

pattern (imported by CheckList) looks up ``wordnet_ic`` and ``sentiwordnet`` and reads an
information-content file when it is imported, and this project uses neither. :func:`pattern_stand_ins`
writes a minimal stand-in of each into a separate folder of the same cache directory, which
:mod:`perturbations.thirdparty` puts on NLTK's path only while CheckList imports.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
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
#: root synsets entity.n.01 (00001740) and a verb root with unit counts: all pattern's import-time read of
#: ``ic-brown.dat`` needs; information content is not used by this project
_IC_STAND_IN = "wnver::eOS9lXC6GvMWznF1wkZofDdtbBU\n1740n 1.0 ROOT\n1740v 1.0 ROOT\n"
#: the folder (below :func:`data_dir`) holding pattern's import-time stand-ins, apart from WordNet
PATTERN_STAND_INS = "pattern-import"
_lock = threading.Lock()


def data_dir() -> Path:
    """Where rome-harness keeps its NLTK data (``ROME_NLTK_DATA`` overrides)."""
    default = Path.home() / ".cache" / "rome-harness" / "nltk_data"
    return Path(os.environ.get("ROME_NLTK_DATA", default)).expanduser()


def lexnames_text() -> str:
    return "".join(f"{i:02d}\t{name}\t{cat}\n" for i, (name, cat) in enumerate(_LEXNAMES))


def prepare(target: Path | None = None, source: Path = DEBIAN_WORDNET) -> Path:
    """Copy Debian's WordNet into ``target`` (idempotent); returns ``target``."""
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
    _remove_old_stand_ins(target)
    return target


def _remove_old_stand_ins(target: Path) -> None:
    """Earlier versions wrote scikit-learn's stop words and pattern's stand-ins beside WordNet, where NLTK
    would now find them on its path: remove them where they are still exactly what was written."""
    corpora = target / "corpora"
    stop = corpora / "stopwords" / "english"
    if stop.is_file():
        from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

        if stop.read_text() == "\n".join(sorted(ENGLISH_STOP_WORDS)) + "\n":
            stop.unlink()
    ic = corpora / "wordnet_ic" / "ic-brown.dat"
    if ic.is_file() and ic.read_text() == _IC_STAND_IN:
        ic.unlink()
    for folder in ("stopwords", "wordnet_ic", "sentiwordnet"):
        if (corpora / folder).is_dir() and not any((corpora / folder).iterdir()):
            (corpora / folder).rmdir()


def pattern_stand_ins(target: Path | None = None) -> Path:
    """The NLTK data root holding pattern's import-time stand-ins (``wordnet_ic/ic-brown.dat``, an empty
    ``sentiwordnet``), written on first use into the project's cache directory."""
    root = (target or data_dir()) / PATTERN_STAND_INS
    ic = root / "corpora" / "wordnet_ic" / "ic-brown.dat"
    if not ic.exists():
        ic.parent.mkdir(parents=True, exist_ok=True)
        ic.write_text(_IC_STAND_IN)
    (root / "corpora" / "sentiwordnet").mkdir(parents=True, exist_ok=True)
    return root


def register() -> Path:
    """Prepare the data directory and append it to ``nltk.data.path`` (once), so nltk reads its WordNet."""
    import nltk

    target = prepare()
    with _lock:
        if str(target) not in nltk.data.path:
            nltk.data.path.append(str(target))
    return target


@functools.lru_cache(maxsize=1)
def wordnet():
    """A WordNet 3.0 reader over the offline copy, built as ``nltk.corpus.wordnet`` is (a lazy multilingual
    reader it never loads here) but of its own: ``nltk.corpus.wordnet`` is left as it is.

    NLTK's reader maps its synsets onto those of the ``wordnet`` corpus as it is built (for the multilingual
    lookups), and it takes the version it reads ("3.0") for a different one from that corpus's name, so it
    reads ``index.sense`` twice to build an identity map: about half of the reader's load time. The corpus
    *is* this copy of WordNet 3.0 and the multilingual data is never read here, so this reader skips the map,
    as NLTK does when the versions match."""
    from nltk.corpus.reader import CorpusReader
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.corpus.util import LazyCorpusLoader

    class WordNet30Reader(WordNetCorpusReader):
        def map_wn(self, version: str = "wordnet") -> None:
            return None

    multilingual = LazyCorpusLoader("omw-2.0", CorpusReader, r".*/wn-data-.*\.tab", encoding="utf8")
    return WordNet30Reader(str(register() / "corpora" / "wordnet"), multilingual)


if __name__ == "__main__":  # ``python -m rome.core.nltk_data``: prepare the data dir (set-up step)
    print(f"NLTK data ready in {prepare()}")
