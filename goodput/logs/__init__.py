"""Log parsers, one module per log format (none yet: the firmware chapter adds them)."""

__all__: list[str] = []
