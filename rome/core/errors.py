"""One exception type for every user-facing input problem, so the CLI can print one line and exit 2."""


class InputError(ValueError):
    """Bad user input: the message is a complete, one-line explanation."""


class ResourceMissingError(RuntimeError):
    """A model, parser or data file is not available offline; the message says what to do."""


class NotApplicableError(InputError):
    """The perturbation changed none of the texts tried: the suite does not apply to these texts.

    Not the user's mistake, and not a metric's failure: ``rome suite`` records it in the output folder's
    summary and exits with :data:`NOT_APPLICABLE_EXIT`, so a job over every corpus can go on."""

    def __init__(self, message: str, texts_tried: int) -> None:
        super().__init__(message)
        self.texts_tried = texts_tried


#: ``rome suite``'s exit code when the suite does not apply to the texts (:class:`NotApplicableError`)
NOT_APPLICABLE_EXIT = 3
