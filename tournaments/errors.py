"""The one domain error type the services raise; the admin and the commands show its message as is."""


class DomainError(Exception):
    """A request the tournament's rules or state do not allow; the message says what and why."""


class StaleEditError(DomainError):
    """The object changed since the form was loaded: another arbiter saved first."""


class PublishNeedsConfirmation(DomainError):
    """The round's pairing breaks absolute criteria: it is published only once the arbiter confirms them."""

    def __init__(self, round: object, violations: list[str]) -> None:
        self.round = round
        self.violations = violations
        number = getattr(round, "number", "?")
        super().__init__(
            f"Round {number} breaks {len(violations)} absolute criteri{'on' if len(violations) == 1 else 'a'} "
            f"({'; '.join(violations)}): publish it from the tournament's control room, which lists them for you "
            f"to confirm."
        )
