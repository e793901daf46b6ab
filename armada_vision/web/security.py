"""Join tokens: who may control the game (record hits, undo, end turns, upload photos).

The token is made at start-up and shown as a URL (and a QR code); a page opened from it sends
the token in the ``X-Armada-Token`` header. Without it the page is read-only.
"""

from __future__ import annotations

import secrets

from fastapi import HTTPException, Request

TOKEN_HEADER = "X-Armada-Token"


def new_token() -> str:
    """A fresh URL-safe token (128 bits of randomness)."""
    return secrets.token_urlsafe(16)


def token_ok(given: str | None, expected: str) -> bool:
    """Constant-time comparison; a missing or non-ASCII token is simply wrong.

    >>> token_ok("abc", "abc"), token_ok("abd", "abc"), token_ok(None, "abc")
    (True, False, False)
    """
    if not given or not expected:
        return False
    try:
        return secrets.compare_digest(given.encode("ascii"), expected.encode("ascii"))
    except UnicodeEncodeError:
        return False


def has_control(request: Request) -> bool:
    return token_ok(request.headers.get(TOKEN_HEADER), request.app.state.armada.token)


def require_control(request: Request) -> None:
    """FastAPI dependency: 403 unless the request carries the join token."""
    if not has_control(request):
        raise HTTPException(403, "control needs the join token: open the URL shown at start-up")
