"""The fake Discord fixtures (tests/support/discord_e2e.py) for the end-to-end tests."""

from discord_e2e import fake, host, logs

__all__ = ["fake", "host", "logs"]
