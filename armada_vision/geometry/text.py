"""One-line ``key=value`` text forms for value types, and their parser.

Every value type prints as a single line of ``key=value`` pairs separated by spaces; floats
use Python's shortest round-trip repr, so ``parse(format(x)) == x`` exactly.

>>> line = format_fields("pose", {"x_mm": 1.5, "y_mm": -2.0, "heading_deg": 90.0})
>>> line
'pose x_mm=1.5 y_mm=-2.0 heading_deg=90.0'
>>> parse_fields(line, "pose")
{'x_mm': '1.5', 'y_mm': '-2.0', 'heading_deg': '90.0'}
"""

from __future__ import annotations

from collections.abc import Mapping


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    if not text or any(c.isspace() or c == "=" for c in text):
        raise ValueError(f"value {text!r} cannot appear in a one-line text form")
    return text


def format_fields(tag: str, fields: Mapping[str, object]) -> str:
    """Format ``fields`` as ``tag k=v k=v``; None values are left out."""
    parts = [tag]
    parts += [f"{k}={_fmt(v)}" for k, v in fields.items() if v is not None]
    return " ".join(parts)


def parse_fields(text: str, tag: str) -> dict[str, str]:
    """Parse ``tag k=v ...`` into a dict of strings; raise ValueError naming the bad part."""
    words = text.split()
    if not words or words[0] != tag:
        raise ValueError(f"expected text starting with {tag!r}, got {text!r}")
    out: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"{tag}: expected key=value, got {word!r}")
        if key in out:
            raise ValueError(f"{tag}: field {key!r} given twice")
        out[key] = value
    return out


def take_float(
    fields: Mapping[str, str], key: str, tag: str, default: float | None = None
) -> float:
    """Read float field ``key``; raise ValueError naming it when missing or malformed."""
    if key not in fields:
        if default is None:
            raise ValueError(f"{tag}: missing field {key!r}")
        return default
    try:
        return float(fields[key])
    except ValueError:
        raise ValueError(f"{tag}: field {key!r} is not a number: {fields[key]!r}") from None
