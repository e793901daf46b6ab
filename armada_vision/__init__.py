"""armada-vision: a computer-vision referee for Armada, the Icehouse game of pyramid fleets.

Layers, imported one way only (checked by ``tests/test_layers.py``):

- :mod:`armada_vision.geometry`, :mod:`armada_vision.rules`: numpy, shapely, stdlib. Pure.
- :mod:`armada_vision.vision`, :mod:`armada_vision.synth`: OpenCV lives here.
- :mod:`armada_vision.gamelog`: the event-sourced game record (SQLite).
- :mod:`armada_vision.web`, :mod:`armada_vision.cli`: thin front ends.
"""

__version__ = "0.1.0"
