"""The one domain error type the services raise; the admin and the commands show its message as is.

The services word their messages with gettext, so a message is in the language active when it is raised:
the arbiter's in a request, English on the command line."""

from django.utils.translation import ngettext


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
        super().__init__(ngettext(
            "Round %(round)s breaks %(n)s absolute criterion (%(list)s): publish it from the tournament's control "
            "room, which lists it for you to confirm.",
            "Round %(round)s breaks %(n)s absolute criteria (%(list)s): publish it from the tournament's control "
            "room, which lists them for you to confirm.", len(violations))
            % {"round": number, "n": len(violations), "list": "; ".join(violations)})
