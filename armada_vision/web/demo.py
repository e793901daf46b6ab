"""Where the demo sequence lives: the repository's ``sample_images/sequences/demo/``, or a
cache directory the synthetic renderer fills on first start (rendering is deterministic)."""

from __future__ import annotations

import importlib
import logging
import os
from pathlib import Path

log = logging.getLogger("armada_vision.web")
DEMO_PARTS = ("sample_images", "sequences", "demo")


def repo_demo() -> Path | None:
    """The demo folder next to the package (a checkout) or under the working directory."""
    here = Path(__file__).resolve().parents[2]
    for base in (here, Path.cwd()):
        folder = base.joinpath(*DEMO_PARTS)
        if (folder / "layout.json").is_file() and any(folder.glob("frame_*")):
            return folder
    return None


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "armada-vision" / "demo"


def ensure_demo(cache: Path | None = None) -> Path:
    """The demo folder, rendering it into ``cache`` (default ``~/.cache/armada-vision/demo``)
    when no checkout provides one. ValueError when neither is possible."""
    found = repo_demo()
    if found is not None:
        return found
    cache = cache or cache_dir()
    if cache.is_dir() and any(cache.glob("frame_*")) and (cache / "layout.json").is_file():
        return cache
    try:
        seq = importlib.import_module("armada_vision.synth.sequence")
        write = seq.write_demo
    except (ImportError, AttributeError) as e:
        raise ValueError(f"source: no demo sequence found and the renderer cannot make one "
                         f"({e}); pass --source webcam:0 or a folder") from None
    log.warning("no demo sequence in this installation: rendering it into %s (once)", cache)
    cache.mkdir(parents=True, exist_ok=True)
    write(cache)
    return cache
