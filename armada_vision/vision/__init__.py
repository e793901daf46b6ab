"""Vision: calibration from ArUco markers and detection of lying pyramids. OpenCV runs here."""
