"""Carrying requests to and from other tools: HAR 1.2 (:mod:`~explorer.core.carry.har`)."""
