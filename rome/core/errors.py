"""One exception type for every user-facing input problem, so the CLI can print one line and exit 2."""


class InputError(ValueError):
    """Bad user input: the message is a complete, one-line explanation."""


class ResourceMissingError(RuntimeError):
    """A model, parser or data file is not available offline; the message says what to do."""
