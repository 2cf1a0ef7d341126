"""The one domain error type the services raise; the admin and the commands show its message as is."""


class DomainError(Exception):
    """A request the tournament's rules or state do not allow; the message says what and why."""


class StaleEditError(DomainError):
    """The object changed since the form was loaded: another arbiter saved first."""
