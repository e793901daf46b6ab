"""Tie the image to the table: ArUco markers of the layout → camera pose (and intrinsics).

Marker corners: OpenCV's detector with sub-pixel refinement finds the markers, then each
corner is refined from the straight outer edges of its marker (``vision/corners.py``). A marker
that disagrees with the others' table-plane homography (one half under a hand, whose edge
OpenCV took for the marker's) is left out of the pose.

With a camera file the pose comes from ``cv2.solvePnP`` on every kept marker corner (the
table is the plane z = 0); one whole marker is enough when its square's two possible poses are
told apart, its pose covariance then carried into the pieces' σ. Without one, the focal
length is estimated from the same corners (``cv2.calibrateCamera`` on the single view,
principal point at the image centre, square pixels); when the view is too close to
straight-down for that to be determined, a typical webcam focal length is assumed instead.
Then radial distortion k1 is estimated when the pinhole model leaves a clear residual. Either
way the result says so (``intrinsics_source``) and carries a larger uncertainty.

Frames: table mm (+y away from the viewer, +z up), image px (OpenCV, y down).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.corners import refine_corners
from armada_vision.vision.order import median
from armada_vision.vision.types import CalibrationInfo, VisionFailure

# Assumed focal length (× image width) when it cannot be estimated: ~60° horizontal view.
DEFAULT_FOCAL_PER_WIDTH = 0.87
# The focal length estimated from one view is used when its relative σ is at most this and
# the view is tilted at least this much: closer to straight down it is not determined.
MAX_FOCAL_REL_SIGMA = 0.2
MIN_TILT_FOR_FOCAL_DEG = 5.0
# Typical offset of a webcam's principal point from the image centre, share of the width.
PRINCIPAL_POINT_REL = 0.015
# Without a camera file, radial distortion k1 is estimated when the pinhole pose leaves more
# than this residual; a plausible webcam's |k1| is below MAX_ABS_K1.
MIN_RMS_FOR_K1_PX = 0.3
MAX_ABS_K1 = 0.6
# A marker whose worst corner is further than this from the others' homography, and than
# OUTLIER_FACTOR × the markers' median, is left out; at least MIN_MARKERS_KEPT stay.
OUTLIER_MIN_PX = 1.0
OUTLIER_FACTOR = 4.0
MIN_MARKERS_KEPT = 3
# With a camera file one whole marker calibrates (issue 4, session 62, stills72: the still
# s26_partial_hd, a low camera seeing marker 7 whole and 0 and 4 cut by the image edge, was
# `too_few_markers` and its 3 pieces missed). A square's 4 corners fix the pose (6 unknowns,
# 8 measurements) but allow a second, mirror-tilted pose; the marker is used only when that
# pose reprojects its corners at least ONE_MARKER_MIN_ALT_RMS_PX off and the chosen one within
# ONE_MARKER_MAX_RMS_PX (a corner moved by a hand's edge shows there). s26: 0.011 px against
# 1.50 px. The pose's uncertainty from the corner σ is carried (``pose_cov``) and grows with
# the distance from the marker (detect.calibration_sigma_mm).
ONE_MARKER_MIN_ALT_RMS_PX = 0.5
ONE_MARKER_MAX_RMS_PX = 0.2
# Four corners leave 2 of their 8 measurements to show an error, so a one-marker pose's corner
# σ is not read from its residual: it is taken as ONE_MARKER_CORNER_SIGMA_PX (at least twice the
# residual). A bias of two corners together moves the pose and leaves no residual: the test
# harness's marker_table_image draws corners 0.25-0.33 px off (one marker at 15-35° tilt, 550-
# 850 mm: table error up to 6.4 × σ with the 0.05 px floor, 1.1 × with 0.3 px); the stills'
# edge corners are 0.05 px RMS, 0.19 px at most (docs/vision.md, Calibration 1).
ONE_MARKER_CORNER_SIGMA_PX = 0.3


@dataclass(frozen=True, slots=True, eq=False)
class TableCalibration:
    """Camera intrinsics and pose of one image relative to the table (z = 0 plane, mm).

    ``focal_rel_sigma``: relative uncertainty of the focal length (0 when given by a camera
    file); it scales the error of anything measured above the table plane.
    """

    camera: CameraIntrinsics
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    info: CalibrationInfo
    corner_sigma_px: float
    focal_rel_sigma: float = 0.0
    # Covariance (6 × 6: rvec, tvec) of the pose from the corner σ when one marker gave it,
    # else None (several markers round the table: their corner noise averages, see detect).
    pose_cov: tuple[tuple[float, ...], ...] | None = None

    @property
    def R(self) -> np.ndarray:
        return cv2.Rodrigues(np.array(self.rvec, dtype=float))[0]

    @property
    def camera_center_mm(self) -> np.ndarray:
        """Camera centre in the table frame (mm); z is its height above the table."""
        return (-self.R.T @ np.array(self.tvec, dtype=float)).ravel()

    @property
    def tilt_deg(self) -> float:
        """Angle between the optical axis and straight down, degrees."""
        axis_table = self.R.T @ np.array([0.0, 0.0, 1.0])
        return math.degrees(math.acos(min(1.0, max(-1.0, -axis_table[2]))))

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Table points (N, 3) mm, or (N, 2) on the table plane → image px (N, 2), with the
        camera's distortion."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, np.shape(points_mm)[-1])
        if pts.shape[1] == 2:
            pts = np.column_stack((pts, np.zeros(len(pts))))
        dist = self.camera.dist
        if len(dist) > 8:  # thin prism and tilt terms: OpenCV's own model
            out, _ = cv2.projectPoints(pts, np.array(self.rvec), np.array(self.tvec),
                                       self.camera.K, dist)
            return out.reshape(-1, 2)
        return _project_pinhole(pts, self.R, np.array(self.tvec, dtype=float), self.camera.K,
                                dist)

    def image_to_table(self, points_px: np.ndarray, z_mm: float = 0.0) -> np.ndarray:
        """Image px (N, 2) → table mm (N, 2) on the plane at height ``z_mm``."""
        pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 1, 2)
        rays = cv2.undistortPoints(pts, self.camera.K, self.camera.dist).reshape(-1, 2)
        d_cam = np.column_stack((rays, np.ones(len(rays))))
        R = self.R
        d_tab = d_cam @ R  # R.T @ d for each row
        c = self.camera_center_mm
        lam = (z_mm - c[2]) / d_tab[:, 2]
        return c[:2] + lam[:, None] * d_tab[:, :2]

    def mm_per_px(self, point_mm: tuple[float, float]) -> float:
        """Table mm covered by one image pixel near ``point_mm`` (geometric mean of axes)."""
        p = np.array([[point_mm[0], point_mm[1]], [point_mm[0] + 1, point_mm[1]],
                      [point_mm[0], point_mm[1] + 1]])
        q = self.project(p)
        a = np.linalg.norm(q[1] - q[0])
        b = np.linalg.norm(q[2] - q[0])
        return 1.0 / math.sqrt(max(a * b, 1e-12))


def _project_pinhole(pts: np.ndarray, R: np.ndarray, t: np.ndarray, K: np.ndarray,
                     dist: np.ndarray) -> np.ndarray:
    """``cv2.projectPoints`` for up to 8 distortion terms (k1, k2, p1, p2, k3, k4, k5, k6):
    camera-frame points (N, 3) mm → image px (N, 2), the same model. The Python binding
    always works out the Jacobian too, ~10× the cost (3.2 against 0.3 ms for the
    rectifier's ~12 000 grid points at 1080p); the results agree to ~1e-13 px."""
    p = pts @ R.T
    p += t
    x = p[:, 0] / p[:, 2]
    y = p[:, 1] / p[:, 2]
    d = np.zeros(8)
    d[:len(dist)] = dist
    k1, k2, p1, p2, k3, k4, k5, k6 = d.tolist()
    if any((k1, k2, p1, p2, k3, k4, k5, k6)):
        r2 = x * x + y * y
        radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
        if k4 or k5 or k6:
            radial /= 1.0 + r2 * (k4 + r2 * (k5 + r2 * k6))
        xy2 = 2.0 * x * y
        x, y = (x * radial + p1 * xy2 + p2 * (r2 + 2.0 * x * x),
                y * radial + p1 * (r2 + 2.0 * y * y) + p2 * xy2)
    return np.column_stack((K[0, 0] * x + K[0, 2], K[1, 1] * y + K[1, 2]))


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """The OpenCV predefined dictionary called ``name``; ValueError names the field."""
    code = getattr(cv2.aruco, name, None)
    if not isinstance(code, int):
        raise ValueError(f"dictionary: unknown OpenCV ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(code)


# Adaptive threshold windows of the half-size search: 3 and 23 px (OpenCV's default 3, 13 and
# 23 without the middle one). On the 1648-, 1936-, 2800- and 3088-sets and the stills it finds
# the same markers as the three, the corners within 0.006 px, for two thirds of the
# thresholds and contour passes. The full-size searches keep the three.
HALF_THRESH_WIN = (3, 23, 20)  # min, max, step


def _detector(dictionary: str, half: bool = False) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = 5
    params.cornerRefinementMaxIterations = 50
    params.cornerRefinementMinAccuracy = 0.01
    if half:
        (params.adaptiveThreshWinSizeMin, params.adaptiveThreshWinSizeMax,
         params.adaptiveThreshWinSizeStep) = HALF_THRESH_WIN
    return cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)


def find_markers(gray: np.ndarray, layout: TableLayout,
                 camera: CameraIntrinsics | None = None) -> dict[int, np.ndarray]:
    """Markers of the layout visible in a grayscale image: id → (4, 2) corners, image px,
    in OpenCV's corner order, refined from the markers' outer edges (undistorted with
    ``camera`` when given). Ids that are not in the layout are ignored."""
    detector = _detector(layout.dictionary)
    known = {m.id for m in layout.markers}
    cells = detector.getDictionary().markerSize + 2  # bits plus the one-cell black border
    # OpenCV's search for candidates (adaptive thresholds at three window sizes, contours,
    # over the whole frame) is most of calibrate's time. It is run on the image at half
    # size first (~half the time), the corners found are put on the full image and refined
    # from the edges there; a marker is kept when the edges refined its four corners. When
    # some marker was not found (under a hand, too small at half size), it and any not kept
    # are searched at full size, but only round their quads as the kept markers predict
    # them: a window costs ~0.7 ms, the whole frame 5.5 ms at 720p, 27 at 1080p. With all
    # found but a corner the edges could not place, or fewer than two kept, the full image
    # is searched as before (a window path there moved a marginal reading in 2337).
    found = _detect(_detector(layout.dictionary, half=True), gray, known, half=True)
    kept = _refined(gray, found, cells, camera, only_good=True)
    if len(kept) == len(known):
        return kept
    if len(found) < len(known) and len(kept) >= 2:
        win = _detect_in_windows(detector, gray, layout, kept, known - kept.keys())
        return kept | _refined(gray, win, cells, camera)
    return _refined(gray, _detect(detector, gray, known, half=False), cells, camera)


def _refined(gray: np.ndarray, found: dict[int, np.ndarray], cells: int,
             camera: CameraIntrinsics | None, only_good: bool = False) -> dict[int, np.ndarray]:
    """``found``'s corners refined from the markers' edges (a corner the edges could not place
    stays OpenCV's); with ``only_good`` only the markers whose four corners were refined."""
    if not found:
        return {}
    refined, good = refine_corners(gray, np.array(list(found.values())), cells, camera)
    return {i: r for i, r, g in zip(found, refined, good.all(axis=1), strict=True)
            if g or not only_good}


# Margin (full-size px) round a marker's predicted quad: past the largest adaptive
# threshold window (OpenCV's default adaptiveThreshWinSizeMax 23) and the white border that
# makes the black square a contour, plus a share of the side for the prediction's error
# (lens distortion, a homography from markers on one side of the table).
WINDOW_MARGIN_PX = 24
WINDOW_MARGIN_REL = 0.25


def _detect_in_windows(detector: cv2.aruco.ArucoDetector, gray: np.ndarray, layout: TableLayout,
                       found: dict[int, np.ndarray], ids: set[int]) -> dict[int, np.ndarray]:
    """Markers of ``ids`` found at full size, each in a window round its quad as predicted by
    the table-plane homography of the ``found`` markers' corners: id → (4, 2) corners."""
    obj = np.concatenate([layout.marker(i).corners_mm() for i in found]).astype(np.float64)
    H, _ = cv2.findHomography(obj, np.concatenate(list(found.values())), 0)
    out: dict[int, np.ndarray] = {}
    if H is None:
        return out
    h, w = gray.shape
    for i in sorted(ids):
        quad = cv2.perspectiveTransform(
            layout.marker(i).corners_mm().reshape(-1, 1, 2).astype(np.float64), H).reshape(4, 2)
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        m = WINDOW_MARGIN_PX + WINDOW_MARGIN_REL * float((hi - lo).max())
        x0, y0 = (max(int(v), 0) for v in np.floor(lo - m))
        x1, y1 = min(int(np.ceil(hi[0] + m)), w), min(int(np.ceil(hi[1] + m)), h)
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue  # predicted off the image
        win = _detect(detector, np.ascontiguousarray(gray[y0:y1, x0:x1]), {i}, half=False)
        if i in win:
            out[i] = win[i] + (x0, y0)
    return out


# Window (half-size, px) of the sub-pixel corner search on the full image from a corner found
# at half size: that corner is within ~2 px, and OpenCV's window of 5 then reached a small
# marker's inner bit corners (seed 7 at 720p: three corners 3.3 px off).
HALF_SIZE_SUBPIX_WIN = 3


def _detect(detector: cv2.aruco.ArucoDetector, gray: np.ndarray, known: set[int], *,
            half: bool) -> dict[int, np.ndarray]:
    """OpenCV's markers with ids in ``known``: id → (4, 2) corners, full image px; with
    ``half`` found on the image at half size and sub-pixel refined on the full image."""
    img = gray
    if half:
        img = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                         interpolation=cv2.INTER_AREA)
    corners, ids, _ = detector.detectMarkers(img)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        i = int(i)
        if i in known and i not in found:
            found[i] = c.reshape(4, 2).astype(np.float64)
    if half and found:
        # Pixel centres at integers: a half-size pixel covers full-size pixels 2x … 2x + 1.
        scale = np.array([gray.shape[1] / img.shape[1], gray.shape[0] / img.shape[0]])
        q = ((np.array(list(found.values())) + 0.5) * scale - 0.5).astype(np.float32)
        q = q.reshape(-1, 1, 2)
        p = detector.getDetectorParameters()
        cv2.cornerSubPix(gray, q, (HALF_SIZE_SUBPIX_WIN, HALF_SIZE_SUBPIX_WIN), (-1, -1),
                         (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS,
                          p.cornerRefinementMaxIterations, p.cornerRefinementMinAccuracy))
        found = dict(zip(found, q.reshape(-1, 4, 2).astype(np.float64), strict=True))
    return found


def consistent_markers(found: dict[int, np.ndarray], layout: TableLayout,
                       camera: CameraIntrinsics | None = None) -> tuple[int, ...]:
    """Ids of the markers that agree with one table-plane homography (fitted to all corners,
    in undistorted px when ``camera`` is given), dropping the worst one at a time while it is
    clearly off (over ``OUTLIER_MIN_PX`` and ``OUTLIER_FACTOR`` × the median marker)."""
    ids = sorted(found)
    while len(ids) > MIN_MARKERS_KEPT:
        obj = np.concatenate([layout.marker(i).corners_mm() for i in ids])
        img = np.concatenate([found[i] for i in ids])
        if camera is not None:
            img = cv2.undistortPoints(img.reshape(-1, 1, 2), camera.K, camera.dist,
                                      P=camera.K).reshape(-1, 2)
        H, _ = cv2.findHomography(obj, img, 0)
        if H is None:
            break
        proj = cv2.perspectiveTransform(obj.reshape(-1, 1, 2), H).reshape(-1, 2)
        worst = np.linalg.norm(proj - img, axis=1).reshape(-1, 4).max(axis=1)
        k = int(np.argmax(worst))
        if worst[k] <= max(OUTLIER_MIN_PX, OUTLIER_FACTOR * float(median(worst))):
            break
        ids.pop(k)
    return tuple(ids)


def exposure_failure(gray: np.ndarray) -> VisionFailure | None:
    """A failure when the image is too dark or blown out to read, else None."""
    # One histogram answers all three questions (a percentile sorts the whole frame: ~8 ms at
    # 1080p, a third of calibration).
    hist = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel() / max(gray.size, 1)
    mean = float(hist @ np.arange(256))
    if mean < 18.0 or float(hist[40:].sum()) < 0.01:   # 99 % of pixels darker than 40
        return VisionFailure("too_dark", f"image too dark to read (mean brightness {mean:.0f}/255)")
    blown = float(hist[250:].sum())
    if blown > 0.6:
        return VisionFailure("blown_out", f"image blown out ({blown:.0%} of pixels saturated)")
    return None


def _single_view_intrinsics(obj: np.ndarray, img: np.ndarray, K0: np.ndarray,
                            size: tuple[int, int], fix_focal: bool
                            ) -> tuple[float, float, float, float] | None:
    """``cv2.calibrateCameraExtended`` on one planar view (principal point fixed, square
    pixels, k1 the only distortion term): focal (px), its σ (px), k1 and the RMS residual
    (px); None when OpenCV fails."""
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT
             | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2
             | cv2.CALIB_FIX_K3)
    if fix_focal:
        flags |= cv2.CALIB_FIX_FOCAL_LENGTH
    try:
        res = cv2.calibrateCameraExtended(
            [obj.astype(np.float32)], [img.astype(np.float32).reshape(-1, 1, 2)], size, K0,
            np.zeros(5), flags=flags)
    except cv2.error:
        return None
    K, dist, std = res[1], res[2], res[5]
    # With a fixed aspect ratio OpenCV reports the focal's σ on fy (index 1), fx's as 0.
    f_std = float(np.max(std.ravel()[:2])) if std is not None and std.size else float("inf")
    return float(K[0, 0]), f_std, float(dist.ravel()[0]), float(res[0])


def _estimate_focal(obj: np.ndarray, img: np.ndarray, size: tuple[int, int]
                    ) -> tuple[float, float] | None:
    """Focal length (px) and its relative σ from one planar view, or None if undetermined."""
    w, h = size
    f0 = DEFAULT_FOCAL_PER_WIDTH * w
    K0 = np.array([[f0, 0, (w - 1) / 2], [0, f0, (h - 1) / 2], [0, 0, 1]])
    est = _single_view_intrinsics(obj, img, K0, size, fix_focal=False)
    if est is None:
        return None
    f, f_std = est[0], est[1]
    if not (0.2 * w < f < 8.0 * w) or not math.isfinite(f_std) or f_std <= 0.0:
        return None
    return f, f_std / f


def _estimate_k1(obj: np.ndarray, img: np.ndarray, cam: CameraIntrinsics) -> float:
    """Radial distortion k1 of a camera without a file, its focal length kept; 0 unless it
    explains the corners clearly better (residual halved, from over MIN_RMS_FOR_K1_PX)."""
    rms0 = _solve_pose(obj, img, cam)[2]
    if rms0 < MIN_RMS_FOR_K1_PX:
        return 0.0
    est = _single_view_intrinsics(obj, img, cam.K.copy(), cam.image_size, fix_focal=True)
    if est is None or est[3] > 0.5 * rms0 or abs(est[2]) > MAX_ABS_K1:
        return 0.0
    return est[2]


def _solve_pose(obj: np.ndarray, img: np.ndarray, cam: CameraIntrinsics
                ) -> tuple[np.ndarray, np.ndarray, float]:
    """PnP on the table plane, refined with Levenberg–Marquardt; returns rvec, tvec and the
    RMS reprojection error (px)."""
    ok, rvec, tvec = cv2.solvePnP(obj, img, cam.K, cam.dist, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        ok, rvec, tvec = cv2.solvePnP(obj, img, cam.K, cam.dist, flags=cv2.SOLVEPNP_ITERATIVE)
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, cam.K, cam.dist, rvec, tvec)
    proj, _ = cv2.projectPoints(obj, rvec, tvec, cam.K, cam.dist)
    rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
    return rvec.ravel(), tvec.ravel(), rms


def _one_marker(found: dict[int, np.ndarray], layout: TableLayout, camera: CameraIntrinsics
                ) -> TableCalibration | VisionFailure:
    """The pose from one whole marker and a camera file (ONE_MARKER_*), with its covariance;
    a ``too_few_markers`` failure when the square's two poses cannot be told apart."""
    (i, img), = found.items()
    obj = np.column_stack((layout.marker(i).corners_mm(), np.zeros(4)))
    img = np.asarray(img, dtype=np.float64).reshape(-1, 2)
    fail = VisionFailure("too_few_markers", f"1 of the layout's {len(layout.markers)} markers "
                         "visible and its pose ambiguous; need 2 or more")
    n, rvecs, tvecs, errs = cv2.solvePnPGeneric(obj, img, camera.K, camera.dist,
                                                flags=cv2.SOLVEPNP_IPPE)
    errs = np.asarray(errs, dtype=float).ravel()
    if n < 2 or errs[0] > ONE_MARKER_MAX_RMS_PX or errs[1] < ONE_MARKER_MIN_ALT_RMS_PX:
        return fail
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, camera.K, camera.dist, rvecs[0], tvecs[0])
    rvec, tvec = rvec.ravel(), tvec.ravel()
    proj, jac = cv2.projectPoints(obj, rvec, tvec, camera.K, camera.dist)
    rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - img) ** 2, axis=1))))
    R = cv2.Rodrigues(rvec)[0]
    if rms > ONE_MARKER_MAX_RMS_PX or (-R.T @ tvec)[2] <= 0:
        return fail
    corner_sigma = max(rms * 2.0, ONE_MARKER_CORNER_SIGMA_PX)
    J = jac[:, :6]
    cov = corner_sigma ** 2 * np.linalg.inv(J.T @ J)
    return _calibration(camera, rvec, tvec, (i,), rms, "given", corner_sigma, 0.0,
                        tuple(tuple(float(v) for v in r) for r in cov))


def _calibration(camera: CameraIntrinsics, rvec: np.ndarray, tvec: np.ndarray,
                 ids: tuple[int, ...], rms: float, source: str, corner_sigma: float,
                 focal_rel_sigma: float, pose_cov: tuple[tuple[float, ...], ...] | None = None
                 ) -> TableCalibration:
    """The calibration of a solved camera pose (``rvec``, ``tvec``: table mm → camera), with
    its homography table mm → image px on the undistorted plane (for warping and the file
    format)."""
    R = cv2.Rodrigues(rvec)[0]
    H_img_from_table = camera.K @ np.column_stack((R[:, 0], R[:, 1], tvec))
    H_table_from_image = np.linalg.inv(H_img_from_table)
    H_table_from_image /= H_table_from_image[2, 2]
    info = CalibrationInfo(
        markers_found=ids, reprojection_error_px=rms,
        H_table_from_image=tuple(tuple(float(v) for v in r) for r in H_table_from_image),
        intrinsics_source=source, rvec=tuple(float(v) for v in rvec),
        tvec=tuple(float(v) for v in tvec))
    return TableCalibration(camera, info.rvec, info.tvec, info, corner_sigma,  # type: ignore[arg-type]
                            focal_rel_sigma, pose_cov)


def _pinhole(size: tuple[int, int], f: float, k1: float = 0.0) -> CameraIntrinsics:
    """Camera with focal ``f`` px, principal point at the image centre, radial k1 only."""
    w, h = size
    return CameraIntrinsics((w, h), ((f, 0.0, (w - 1) / 2), (0.0, f, (h - 1) / 2),
                                     (0.0, 0.0, 1.0)), (k1, 0.0, 0.0, 0.0, 0.0))


def calibrate(image_bgr: np.ndarray, layout: TableLayout,
              camera: CameraIntrinsics | None = None) -> TableCalibration | VisionFailure:
    """Camera pose relative to the table from the layout's visible ArUco markers.

    ``image_bgr``: 8-bit BGR (or grayscale) image. Needs 2+ markers (8+ corners), or one whole
    marker with ``camera`` when its pose is unambiguous (ONE_MARKER_*); a marker that disagrees
    with the others is left out (``info.markers_found`` lists those used).
    Returns a :class:`TableCalibration`, or a :class:`VisionFailure` (``unreadable``,
    ``too_dark``, ``blown_out``, ``too_few_markers``, ``bad_calibration``) with a one-line
    reason.
    """
    if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim not in (2, 3) or image_bgr.size == 0:
        return VisionFailure("unreadable", "image is empty or not an image array")
    gray = image_bgr if image_bgr.ndim == 2 else cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY)
    if gray.dtype != np.uint8:
        return VisionFailure("unreadable", f"image has pixel type {gray.dtype}, expected 8-bit")
    h, w = gray.shape
    bad = exposure_failure(gray)
    if bad is not None:
        return bad
    if camera is not None and tuple(camera.image_size) != (w, h):
        return VisionFailure(
            "bad_calibration",
            f"camera file is for {camera.image_size[0]}×{camera.image_size[1]} images, "
            f"this image is {w}×{h}")
    found = find_markers(gray, layout, camera)
    if len(found) == 1 and camera is not None:
        return _one_marker(found, layout, camera)
    if len(found) < 2:
        return VisionFailure(
            "too_few_markers",
            f"{len(found)} of the layout's {len(layout.markers)} markers visible; need 2 or more")
    ids = consistent_markers(found, layout, camera)
    obj2 = np.concatenate([layout.marker(i).corners_mm() for i in ids])
    obj = np.column_stack((obj2, np.zeros(len(obj2))))
    img = np.concatenate([found[i] for i in ids])

    source, focal_rel_sigma = "given", 0.0
    if camera is None:
        source = "estimated"
        f, focal_rel_sigma = DEFAULT_FOCAL_PER_WIDTH * w, 0.3
        est = _estimate_focal(obj, img, (w, h))
        if est is not None:
            cam_est = _pinhole((w, h), est[0])
            axis = cv2.Rodrigues(_solve_pose(obj, img, cam_est)[0])[0].T @ np.array([0, 0, 1.0])
            tilt = math.degrees(math.acos(min(1.0, max(-1.0, -axis[2]))))
            # The principal point is assumed at the image centre; a real camera's is off by
            # ~PRINCIPAL_POINT_REL of the width, which moves the estimate by about that share
            # / tan(tilt). Near straight down OpenCV's own σ can be small and f still wrong.
            rel = math.hypot(est[1], PRINCIPAL_POINT_REL / math.tan(math.radians(max(tilt, 0.1))))
            if tilt >= MIN_TILT_FOR_FOCAL_DEG and rel <= MAX_FOCAL_REL_SIGMA:
                f, focal_rel_sigma = est[0], max(rel, 0.03)
        camera = _pinhole((w, h), f)
        k1 = _estimate_k1(obj, img, camera)
        if k1 != 0.0:
            camera = _pinhole((w, h), f, k1)
    try:
        rvec, tvec, rms = _solve_pose(obj, img, camera)
    except cv2.error as e:
        return VisionFailure("bad_calibration", f"camera pose could not be solved ({e.msg})")
    if not np.all(np.isfinite(tvec)) or rms > 5.0:
        return VisionFailure("bad_calibration",
                             f"markers do not fit the layout (reprojection error {rms:.1f} px)")
    R = cv2.Rodrigues(rvec)[0]
    if (-R.T @ tvec)[2] <= 0:
        return VisionFailure("bad_calibration", "camera appears to be below the table")
    # Corner σ: the residual, with a floor for what sub-pixel refinement cannot do better.
    dof = max(2 * len(img) - 6, 1)
    corner_sigma = max(rms * math.sqrt(2 * len(img) / dof), 0.05)
    return _calibration(camera, rvec, tvec, ids, rms, source, corner_sigma, focal_rel_sigma)
