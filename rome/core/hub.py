"""Load Hugging Face models by name without ever waiting on an unreachable hub.

transformers retries a failing hub request for about a minute before giving up. A named model
is looked up in the local cache first; the hub is asked only when it answers a quick TCP
connect, so offline users get the one-line "not available locally" error at once and users
with a network still download what they name.
"""

from __future__ import annotations

import os
import socket
from functools import lru_cache
from typing import Any
from urllib.parse import urlparse


def offline_mode() -> bool:
    """``HF_HUB_OFFLINE`` set to a true value."""
    return os.environ.get("HF_HUB_OFFLINE", "0").strip().lower() not in ("0", "", "false", "no")


@lru_cache(maxsize=4)
def hub_reachable(timeout_s: float = 3.0) -> bool:
    """Whether the hub endpoint (``HF_ENDPOINT`` or huggingface.co) accepts a TCP connection."""
    url = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co"))
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        with socket.create_connection((url.hostname or "huggingface.co", port), timeout=timeout_s):
            return True
    except OSError:
        return False


def from_pretrained(factory: Any, name_or_path: str, **options: Any) -> Any:
    """``factory.from_pretrained``: local files first, the hub only when online and reachable.

    Raises what transformers raises (``OSError``/``ValueError``) when the model is nowhere.
    """
    try:
        return factory.from_pretrained(name_or_path, local_files_only=True, **options)
    except (OSError, ValueError):
        if offline_mode() or not hub_reachable():
            raise
    return factory.from_pretrained(name_or_path, **options)
