"""Images in and out of the server: JPEG frames for the phones, validated uploads, the QR code.

Uploads are untrusted: the size is capped, the first bytes must be a JPEG, PNG or WebP
signature, the pixel count read from the header is capped before decoding, and decoding is
OpenCV's ``imdecode`` (nothing touches the file system).
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

MAX_UPLOAD_BYTES = 15 * 1024 * 1024
MAX_UPLOAD_PIXELS = 40_000_000

SIGNATURES = {
    "jpeg": (b"\xff\xd8\xff",),
    "png": (b"\x89PNG\r\n\x1a\n",),
    "webp": (b"RIFF",),
}


class BadImage(ValueError):
    """An upload that is not an image we accept; the message names what is wrong."""


def sniff(data: bytes) -> str | None:
    """The image type from magic bytes, or None.

    >>> sniff(b"\\x89PNG\\r\\n\\x1a\\n...."), sniff(b"GIF89a")
    ('png', None)
    """
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def header_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """(width, height) from a PNG IHDR or a JPEG SOF segment without decoding; None if unknown.

    >>> ok, buf = cv2.imencode(".png", np.zeros((7, 9, 3), np.uint8))
    >>> header_size(buf.tobytes(), "png")
    (9, 7)
    """
    if kind == "png" and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return (w, h)
    if kind == "jpeg":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                return None
            marker = data[i + 1]
            if marker == 0xFF:          # fill byte
                i += 1
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return (w, h)
            i += 2 + length
    return None


def decode_upload(data: bytes, max_bytes: int = MAX_UPLOAD_BYTES,
                  max_pixels: int = MAX_UPLOAD_PIXELS) -> np.ndarray:
    """Validate and decode an uploaded photo to BGR (image frame, px); BadImage says why not."""
    if not data:
        raise BadImage("file: the upload is empty")
    if len(data) > max_bytes:
        raise BadImage(f"file: {len(data)} bytes is more than the {max_bytes} byte limit")
    kind = sniff(data)
    if kind is None:
        raise BadImage("file: not a JPEG, PNG or WebP image")
    size = header_size(data, kind)
    if size is not None and size[0] * size[1] > max_pixels:
        raise BadImage(f"file: {size[0]}×{size[1]} px is more than {max_pixels} pixels")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise BadImage(f"file: the {kind} image cannot be decoded")
    if image.shape[0] * image.shape[1] > max_pixels:
        raise BadImage(f"file: {image.shape[1]}×{image.shape[0]} px is too many pixels")
    return image


def encode_jpeg(image_bgr: np.ndarray, max_width: int = 1280, quality: int = 75) -> bytes:
    """JPEG for the phones, scaled down to ``max_width`` (the overlays use the original size)."""
    h, w = image_bgr.shape[:2]
    if w > max_width:
        # INTER_AREA is the better filter but slow for non-integer factors (44 ms vs 8 ms for
        # 1920 → 1280); bilinear is fine for a factor under 2.
        interp = cv2.INTER_AREA if w >= 2 * max_width else cv2.INTER_LINEAR
        image_bgr = cv2.resize(image_bgr, (max_width, round(h * max_width / w)),
                               interpolation=interp)
    ok, buf = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def qr_text(text: str) -> str | None:
    """A QR code of ``text`` for a terminal (two modules per character row, with a quiet zone),
    made with OpenCV's encoder; None if OpenCV cannot make one."""
    try:
        qr = cv2.QRCodeEncoder.create().encode(text)
    except (cv2.error, AttributeError):
        return None
    if qr is None or qr.size == 0:
        return None
    dark = np.pad(qr < 128, 2, constant_values=False)
    if dark.shape[0] % 2:
        dark = np.vstack([dark, np.zeros((1, dark.shape[1]), bool)])
    # Light modules are drawn (full block), so the code reads on a dark terminal.
    glyph = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    rows = []
    for y in range(0, dark.shape[0], 2):
        rows.append("".join(glyph[(bool(dark[y, x]), bool(dark[y + 1, x]))]
                            for x in range(dark.shape[1])))
    return "\n".join(rows)
