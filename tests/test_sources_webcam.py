"""A webcam source asks for the pixel format and size chosen (``serve --webcam-format``,
``--webcam-size``) and names what the camera settled on. No camera here: a stand-in for
``cv2.VideoCapture`` keeps the properties set, as a V4L2 camera does, or refuses a format."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from armada_vision.cli import main
from armada_vision.web import sources
from armada_vision.web.sources import SourceSpec, open_source


class FakeCamera:
    """Records what it is asked; ``formats`` are the pixel formats it can send (the first is
    its default), at any size."""

    def __init__(self, formats: tuple[str, ...]) -> None:
        self.formats, self.asked = formats, []
        self.props = {cv2.CAP_PROP_FOURCC: float(cv2.VideoWriter.fourcc(*formats[0])),
                      cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0}

    def __call__(self, target):
        return self

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        self.asked.append(prop)
        if prop == cv2.CAP_PROP_FOURCC:
            code = int(value)
            text = "".join(chr((code >> 8 * i) & 0xFF) for i in range(4))
            if text not in self.formats:
                return False
        self.props[prop] = float(value)
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)

    def read(self):
        w, h = int(self.props[cv2.CAP_PROP_FRAME_WIDTH]), int(self.props[cv2.CAP_PROP_FRAME_HEIGHT])
        return True, np.zeros((h, w, 3), np.uint8)

    def release(self) -> None:
        pass


@pytest.mark.parametrize(("formats", "asked", "name"), [
    (("MJPG", "YUYV"), "uncompressed", "webcam 0 (1280×720 YUYV)"),
    (("MJPG",), "uncompressed", "webcam 0 (1280×720 MJPG, asked YUYV)"),
    (("YUYV", "MJPG"), "mjpeg", "webcam 0 (1280×720 MJPG)"),
    (("MJPG", "YUYV"), "camera", "webcam 0 (1280×720 MJPG)"),
])
def test_a_webcam_is_asked_for_its_format_and_says_what_it_sends(monkeypatch, formats, asked,
                                                                   name) -> None:
    cam = FakeCamera(formats)
    monkeypatch.setattr(sources.cv2, "VideoCapture", cam)
    src = open_source(SourceSpec("webcam", 0), webcam_size=(1280, 720), webcam_format=asked)
    assert src.name == name
    assert src.read().shape == (720, 1280, 3)
    # The format is asked before the size (drivers list a format's sizes once it is chosen),
    # and not at all when the camera's own choice is wanted.
    want = [cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT]
    assert cam.asked == (want if asked == "camera" else [cv2.CAP_PROP_FOURCC, *want])


def test_an_unknown_webcam_format_is_refused() -> None:
    with pytest.raises(ValueError, match="webcam format"):
        open_source(SourceSpec("webcam", 0), webcam_format="raw")


@pytest.mark.parametrize("size", ["720p", "1280x", "32x32"])
def test_serve_refuses_a_bad_webcam_size_in_one_line(capsys, rendered_scene, size) -> None:
    assert main(["serve", "--source", str(rendered_scene.folder), "--webcam-size", size]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--webcam-size" in err and "Traceback" not in err
