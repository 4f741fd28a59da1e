"""Timestamps as fixed-width RFC 3339 UTC strings, which sort the same on both backends."""

from datetime import UTC, datetime


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
