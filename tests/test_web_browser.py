"""End-to-end: the phone page in a real headless Chromium (Debian's, never a download) at a
390×844 phone viewport, against a live server on 127.0.0.1 fed by rendered frames."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser import chromium, require_chromium, serve

PHONE = {"width": 390, "height": 844}
TOKEN = "test-join-token-123"
SHOTS = Path(os.environ.get("ARMADA_SCREENSHOTS", "/tmp/armada-web-screens"))

pytestmark = pytest.mark.browser

require_chromium()
pytest.importorskip("playwright.sync_api")



@pytest.fixture()
def live_server(rendered_scene) -> Iterator[tuple[str, object]]:
    """uvicorn in a background thread on a free loopback port; yields (base URL, app)."""
    from conftest import TruthAnalyser

    from armada_vision.web.app import create_app
    from armada_vision.web.sources import FolderSource

    analyser = TruthAnalyser(rendered_scene)
    app = create_app(FolderSource(rendered_scene.folder, fps=8), rendered_scene.layout,
                     analyser=analyser, upload_analyser=TruthAnalyser(rendered_scene),
                     token=TOKEN)
    app.state.test_analyser = analyser
    with serve(app) as url:
        yield url, app


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium() as b:
        yield b


def _phone(browser, url: str):
    # The tests read page state with evaluated expressions, which the page's CSP forbids;
    # test_page_runs_under_its_content_security_policy checks the page without the bypass.
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                              has_touch=True, bypass_csp=True)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_function("Number(document.body.dataset.frameSeq || 0) >= 1", timeout=20000)
    page.wait_for_selector("#g-ships path.ship", state="attached", timeout=20000)
    return ctx, page


def _tap_ship(page, ship_id: str) -> None:
    """Tap the ship where it is drawn: its centroid, image px → screen via the SVG's CTM."""
    xy = page.evaluate("""(id) => {
        const ship = app.live.ships.find((s) => s.id === id);
        const [x, y] = centroid(ship);
        const svg = document.getElementById('overlay');
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(svg.getScreenCTM());
        const hit = document.elementFromPoint(q.x, q.y);
        const over = hit && svg.contains(hit) ? "" : (hit ? hit.outerHTML.slice(0, 80) : "nothing");
        return [q.x, q.y, over];
    }""", ship_id)
    # A tap that lands on something drawn over the view would fail later as "no zones": say so.
    assert not xy[2], f"{ship_id} at screen {xy[:2]} is covered by {xy[2]}"
    page.mouse.click(xy[0], xy[1])


def _wait_zones(page, ship_id: str) -> None:
    """Wait for the selected ship's zones; on a timeout, fail with the page's own account."""
    try:
        page.wait_for_selector("#g-zones path.zone-port", state="attached", timeout=20000)
    except Exception as e:  # playwright's TimeoutError: report what the page thinks
        seen = page.evaluate("""() => ({selected: app.selected, zones: app.zones && app.zones.ship,
            msg: document.getElementById('control-msg').textContent,
            ships: ((app.live || {}).ships || []).map((s) => s.id)})""")
        raise AssertionError(f"no zones drawn after tapping {ship_id}: {seen}") from e


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_page_loads_with_overlays(browser, live_server) -> None:
    url, _app = live_server
    ctx, page = _phone(browser, url)
    try:
        assert page.locator("#g-ships path.ship").count() == 3
        assert page.locator("#g-markers path.marker").count() == 8
        assert "8 markers" in page.locator("#calib").inner_text()
        labels = page.locator("#g-labels text").all_text_contents()
        assert sorted(labels) == ["L1", "M1", "S1"]
        assert page.locator("#mode").inner_text() == "read-only"
        # The view fits the phone's width (no sideways scrolling), zoomed to the table, and the
        # overlay lies exactly on the frame.
        stage = page.locator("#stage").bounding_box()
        assert stage["width"] <= PHONE["width"]
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        assert page.locator("#frame").bounding_box() == page.locator("#overlay").bounding_box()
        assert page.locator("#frame").bounding_box()["width"] > stage["width"]
        _shot(page, "1-live")
    finally:
        ctx.close()


def test_page_runs_under_its_content_security_policy(browser, live_server) -> None:
    url, _app = live_server
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(url)
        page.wait_for_selector("#g-ships path.ship", state="attached", timeout=20000)
        page.wait_for_selector("#calib.ok", timeout=20000)
        page.locator("#ships .id").first.click()
        page.wait_for_selector("#g-zones path.zone-port", state="attached", timeout=20000)
        page.wait_for_selector("#log-table:not([hidden]) path.log-ship", timeout=20000)
        assert problems == []
    finally:
        ctx.close()


def test_tap_ship_shows_zones_then_shot_verdict(browser, live_server) -> None:
    url, _app = live_server
    ctx, page = _phone(browser, url)
    try:
        _tap_ship(page, "L1")
        _wait_zones(page, "L1")
        assert page.locator("#g-zones path.zone-starboard").count() == 1
        assert page.locator("#g-zones path.zone-step").count() == 1
        assert "L1" in page.locator("#card h2").inner_text()
        _shot(page, "2-zones")
        _tap_ship(page, "S1")                      # an enemy: the shot L1 → S1 (§5)
        page.wait_for_selector("#verdict", timeout=20000)
        assert page.locator("#verdict").inner_text() == "YES"
        assert "in range" in page.locator("#reason").inner_text()
        assert page.locator("#g-verdict path.ruler").count() == 1
        assert page.locator("#g-verdict path.line-of-fire").count() == 1
        _shot(page, "3-shot-yes")
        _tap_ship(page, "L1")                      # back to the shooter
        _tap_ship(page, "M1")                      # far away: no
        page.wait_for_function(
            "document.getElementById('verdict') && "
            "document.getElementById('reason').innerText.includes('M1')", timeout=20000)
        assert page.locator("#verdict").inner_text().startswith("NO")
        _shot(page, "4-shot-no")
    finally:
        ctx.close()


def test_control_without_token_is_refused(browser, live_server) -> None:
    url, app = live_server
    ctx, page = _phone(browser, url)
    try:
        _tap_ship(page, "L1")
        _wait_zones(page, "L1")
        _tap_ship(page, "S1")
        page.wait_for_selector("#hit-btn", timeout=20000)
        page.click("#hit-btn")
        page.wait_for_selector("#control-msg:not([hidden])", timeout=10000)
        assert "join token" in page.locator("#control-msg").inner_text()
        page.click("#end-btn")
        assert "join token" in page.locator("#control-msg").inner_text()
        state = app.state.armada.session.state_json()
        assert state["turn"]["number"] == 1 and not state["can_undo"]
        assert {x["id"]: x["damage"] for x in state["ships"]}["S1"] == 0
        _shot(page, "5-read-only-refused")
    finally:
        ctx.close()


def test_with_token_a_hit_is_recorded_and_undone(browser, live_server) -> None:
    url, app = live_server
    ctx, page = _phone(browser, f"{url}/?token={TOKEN}")
    try:
        page.wait_for_function("document.getElementById('mode').innerText === 'control'")
        assert "token" not in page.url                 # the token leaves the address bar
        _tap_ship(page, "L1")
        _wait_zones(page, "L1")
        _tap_ship(page, "S1")
        page.wait_for_selector("#hit-btn:not([disabled])", timeout=20000)
        page.click("#hit-btn")
        # A Small has one pip: one hit sinks it and it leaves the table (§5).
        page.wait_for_function("!app.live.ships.some((s) => s.id === 'S1')", timeout=10000)
        assert [x["id"] for x in app.state.armada.session.state_json()["sunk"]] == ["S1"]
        # The live ships and the turn panel come in separate pushes: wait for the panel too.
        page.wait_for_function(
            "document.getElementById('actions').innerText.includes('2 actions left')",
            timeout=10000)
        _shot(page, "6-hit-recorded")
        page.click("#undo-btn")
        page.wait_for_function("app.live.ships.some((s) => s.id === 'S1')", timeout=10000)
        assert app.state.armada.session.state_json()["sunk"] == []
        page.click("#end-btn")
        page.wait_for_function("app.live.turn.player === 'B'", timeout=10000)
        assert "B to play" in page.locator("#turn-title").inner_text()
    finally:
        ctx.close()


def test_a_settled_move_shows_its_verdict_and_steps(browser, live_server) -> None:
    """§4: when the table settles with M1 one step on (on B's turn), the page shows the move
    verdict and draws the reconstructed step."""
    from armada_vision.geometry.pose import Pose

    url, app = live_server
    ctx, page = _phone(browser, f"{url}/?token={TOKEN}")
    try:
        page.wait_for_function("app.live.turn.started === true", timeout=20000)
        page.click("#end-btn")
        page.wait_for_function("app.live.turn.player === 'B'", timeout=10000)
        analyser = app.state.test_analyser
        analyser.pieces = [(size, Pose(450.0, 486.307, 150.0) if size == "medium" else pose)
                           for size, pose in analyser.pieces]
        page.wait_for_selector("#move-card:not([hidden])", timeout=20000)
        assert "M1" in page.locator("#move-card h2").inner_text()
        assert page.locator("#move-card .verdict").inner_text() == "YES"
        assert page.locator("#g-verdict path.move-step").count() == 1
        assert "moved: M1" in page.locator("#turn-detail").inner_text()
        _shot(page, "7-move")
    finally:
        ctx.close()


def test_a_photo_is_uploaded_and_judged(browser, live_server, rendered_scene, tmp_path) -> None:
    import cv2

    url, _app = live_server
    photo = tmp_path / "photo.jpg"
    cv2.imwrite(str(photo), rendered_scene.frames[2])
    ctx, page = _phone(browser, f"{url}/?token={TOKEN}")
    try:
        page.wait_for_function("document.getElementById('mode').innerText === 'control'")
        page.set_input_files("#photo", str(photo))
        page.wait_for_selector("#view-badge:not([hidden])", timeout=20000)
        page.wait_for_function("app.photo && app.photo.ships.length === 3", timeout=20000)
        assert "/api/upload.jpg" in page.locator("#frame").get_attribute("src")
        page.wait_for_function(
            "document.getElementById('frame').complete && "
            "document.getElementById('frame').naturalWidth === 960", timeout=10000)
        assert page.locator("#g-ships path.ship").count() == 3
        _shot(page, "8-photo")
        page.click("#live-btn")
        page.wait_for_selector("#view-badge", state="hidden", timeout=10000)
    finally:
        ctx.close()


# ---- the game log, flags and the projector (issues 6 and 7) -------------------------------

def _log_svg(page) -> str:
    return page.locator("#log-table").inner_html()


def _log_labels(page) -> list[str]:
    return sorted(page.locator("#log-table text.log-label").all_text_contents())


def test_log_panel_steps_through_the_game_with_a_drawing(browser, live_server) -> None:
    """Issue 6: the log lists the actions; ◀ ▶ redraw the table after each one: the shot with
    its ruler (§5) and S1's damage, the move with its reconstructed step (§4)."""
    from armada_vision.geometry.pose import Pose

    url, app = live_server
    server = app.state.armada
    ctx, page = _phone(browser, url)
    try:
        page.wait_for_function("app.live.turn.started === true", timeout=20000)
        server.session.record_hit("L1", "S1")
        server.session.end_turn()
        server.publish_state()
        analyser = app.state.test_analyser
        analyser.pieces = [(size, Pose(450.0, 486.307, 150.0) if size == "medium" else pose)
                           for size, pose in analyser.pieces]
        page.wait_for_function("app.log && app.log.timeline.some((t) => t.event.kind === 'move')",
                               timeout=20000)
        page.wait_for_function("document.querySelectorAll('#log-list li').length === "
                               "app.log.timeline.length", timeout=5000)
        assert page.locator("#log-table").is_visible()
        items = page.locator("#log-list li").all_text_contents()
        assert any(t.startswith("L1 x S1") for t in items), items
        kinds = page.evaluate("app.log.timeline.map((t) => t.event.kind)")
        # the newest action is shown first: the move with its step
        assert page.locator("#log-list li.cur").count() == 1
        i_move, i_shot = kinds.index("move"), kinds.index("shot")
        while page.evaluate("logIndex()") > i_move:
            page.click("#log-prev")
        assert page.locator("#log-table path.log-step").count() == 1
        assert page.locator("#log-table path.log-ruler").count() == 0
        assert "M1" in page.locator("#log-caption").inner_text()
        at_move = _log_svg(page)
        _shot(page, "9-log-move")
        while page.evaluate("logIndex()") > i_shot:
            page.click("#log-prev")
        assert page.locator("#log-table path.log-ruler").count() == 1
        assert page.locator("#log-table path.log-step").count() == 0
        assert _log_svg(page) != at_move
        page.click("#log-prev")                          # before the shot: S1 undamaged
        assert "S1" in _log_labels(page) and page.locator("#log-table path.log-ruler").count() == 0
        page.click("#log-next")
        page.click("#log-next")                          # the hit's damage: S1 sunk
        assert any(t.startswith("S1 ✕") for t in _log_labels(page)), _log_labels(page)
        page.locator("#log-card").scroll_into_view_if_needed()
        _shot(page, "10-log-shot")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
        while not page.locator("#log-next").is_disabled():
            page.click("#log-next")
        assert page.evaluate("app.logIdx") is None      # at the end: follows new actions
    finally:
        ctx.close()


def _flag(app) -> int:
    """Two ships moved in one settled view: flagged for the players."""
    from armada_vision.geometry.pose import Pose

    analyser = app.state.test_analyser
    moved = {"large": Pose(260.0, 250.0, 0.0), "medium": Pose(450.0, 500.0, 90.0)}
    analyser.pieces = [(s, moved.get(s, p)) for s, p in analyser.pieces]
    deadline = time.time() + 20
    while time.time() < deadline:
        flags = app.state.armada.session.flags_json()
        if flags:
            return flags[0]["n"]
        time.sleep(0.05)
    pytest.fail("no flag")


@contextmanager
def _flagged(browser, live_server) -> Iterator[tuple]:
    """A read-only phone and a controlling one on the started game, and a flag raised (two
    ships moved in one settled view): (app, read-only page, controlling page, flag number)."""
    url, app = live_server
    ro_ctx, ro = _phone(browser, url)
    ctx, page = _phone(browser, f"{url}/?token={TOKEN}")
    try:
        page.wait_for_function("app.live.turn.started === true", timeout=20000)
        yield app, ro, page, _flag(app)
    finally:
        ctx.close()
        ro_ctx.close()


def test_flags_are_settled_on_the_page_with_the_token_only(browser, live_server) -> None:
    with _flagged(browser, live_server) as (app, ro, page, n):
        for p in (ro, page):
            p.wait_for_selector(f"#flags li[data-n='{n}']", timeout=20000)
        assert "moved at once" in ro.locator("#flags li").first.inner_text()
        ro.click(f"#flags li[data-n='{n}'] .accept")      # read-only: refused
        ro.wait_for_selector("#control-msg:not([hidden])", timeout=10000)
        assert "join token" in ro.locator("#control-msg").inner_text()
        assert app.state.armada.session.flags_json()[0]["n"] == n
        page.locator("#flags").scroll_into_view_if_needed()
        _shot(page, "11-flag")
        page.click(f"#flags li[data-n='{n}'] .revert")
        page.wait_for_function(f"!app.live.flags.some((f) => f.n === {n})", timeout=10000)
        page.wait_for_function(
            "[...document.querySelectorAll('#log-list li')].some((li) => "
            f"li.textContent.startsWith('correct #{n} revert'))", timeout=10000)


def test_the_projector_follows_the_controlling_phone(browser, live_server) -> None:
    """Issue 7: the ship a controlling phone selects and the shot it asks about are what the
    projector draws (zones, then the ruler and line of fire); a read-only phone only looks."""
    from armada_vision.web.projector import controller_for

    url, app = live_server
    session = app.state.armada.session
    ro_ctx, ro = _phone(browser, url)
    try:
        _tap_ship(ro, "L1")
        _wait_zones(ro, "L1")
        time.sleep(0.3)
        assert session.selected is None
    finally:
        ro_ctx.close()
    ctx, page = _phone(browser, f"{url}/?token={TOKEN}")
    try:
        page.wait_for_function("document.getElementById('mode').innerText === 'control'")
        _tap_ship(page, "L1")
        _wait_zones(page, "L1")
        deadline = time.time() + 10
        while session.selected != "L1" and time.time() < deadline:
            time.sleep(0.05)
        ctrl = controller_for(app)
        ctrl.sync(session)
        assert {"step", "firing"} <= {o.layer for o in ctrl.overlays}
        _tap_ship(page, "S1")
        page.wait_for_selector("#verdict", timeout=20000)
        while (session.last_shot or {}).get("target") != "S1" and time.time() < deadline:
            time.sleep(0.05)
        assert session.last_shot["verdict"] == "yes"
        ctrl.sync(session)
        assert {"ruler", "line_of_fire"} <= {o.layer for o in ctrl.overlays}
        page.click("#close-sel")
        while session.selected is not None and time.time() < deadline:
            time.sleep(0.05)
        assert session.selected is None and session.last_shot is None
    finally:
        ctx.close()


def _screen_of(page, table_xy) -> list[float]:
    """Screen position of a table point (mm): through the page's own homography and the SVG's
    CTM."""
    return page.evaluate("""(p) => {
        const [x, y] = toPx(p);
        const svg = document.getElementById('overlay');
        const q = svg.createSVGPoint(); q.x = x; q.y = y;
        const r = q.matrixTransform(svg.getScreenCTM());
        return [r.x, r.y];
    }""", list(table_xy))


def _drag(page, a, b) -> None:
    page.mouse.move(a[0], a[1])
    page.mouse.down()
    for k in range(1, 6):
        page.mouse.move(a[0] + (b[0] - a[0]) * k / 5, a[1] + (b[1] - a[1]) * k / 5)
    page.mouse.up()


def test_a_flagged_ship_is_set_by_hand_on_the_page(browser, live_server) -> None:
    """A flag's Set…: drag the ship's outline on the live view, turn it by its tip handle,
    type x, save; the game log has the set correction with exactly the pose the page showed,
    the flag is settled and the live view draws the ship where it was set."""
    with _flagged(browser, live_server) as (app, ro, page, n):
        ro.wait_for_selector(f"#flags li[data-n='{n}'] .set", timeout=20000)
        ro.click(f"#flags li[data-n='{n}'] .set")                # read-only: told, refused
        assert "Read-only" in ro.locator("#set-msg").inner_text()
        ro.click("#set-submit")
        ro.wait_for_function("document.getElementById('set-msg').innerText.includes('token')",
                             timeout=10000)
        assert [f["n"] for f in app.state.armada.session.flags_json()] == [n]
        page.wait_for_selector(f"#flags li[data-n='{n}'] .set", timeout=20000)
        page.click(f"#flags li[data-n='{n}'] .set")
        page.wait_for_selector("#set-card:not([hidden])", timeout=5000)
        assert page.locator("#set-ship").input_value() == "L1"
        assert page.locator("#g-edit path.edit-ship").count() == 1
        start = page.evaluate("JSON.parse(document.body.dataset.editPose)")
        assert start == pytest.approx([260.0, 250.0, 0.0])        # L1 as the camera saw it
        # drag the outline (grabbed a third of the way to the tip) 30 mm along the table's y
        grab = (start[0] + 15.0, start[1])
        _drag(page, _screen_of(page, grab), _screen_of(page, (grab[0], grab[1] + 30.0)))
        moved = page.evaluate("JSON.parse(document.body.dataset.editPose)")
        assert moved[0] == pytest.approx(start[0], abs=1.5)
        assert moved[1] == pytest.approx(start[1] + 30.0, abs=1.5)
        assert moved[2] == pytest.approx(0.0)
        # turn it: the tip handle dragged to straight ahead-left of the stern (90°)
        tip = page.evaluate("placed(gameShip('L1'), app.edit.poses.L1).tip")
        _drag(page, _screen_of(page, tip), _screen_of(page, (moved[0], moved[1] + 40.0)))
        pose = page.evaluate("JSON.parse(document.body.dataset.editPose)")
        assert pose[:2] == pytest.approx(moved[:2])
        assert pose[2] == pytest.approx(90.0, abs=3.0)
        assert page.locator("#set-h").input_value() == f"{pose[2]:.1f}"
        page.fill("#set-x", "262.5")                              # or typed
        pose = page.evaluate("JSON.parse(document.body.dataset.editPose)")
        assert pose[0] == 262.5 and pose[1] == pytest.approx(moved[1])
        page.locator("#set-card").scroll_into_view_if_needed()
        _shot(page, "12-set-by-hand")
        page.click("#set-submit")
        page.wait_for_selector("#set-card", state="hidden", timeout=10000)
        page.wait_for_function(f"!app.live.flags.some((f) => f.n === {n})", timeout=10000)
        page.wait_for_function(
            "[...document.querySelectorAll('#log-list li')].some((li) => "
            f"li.textContent.startsWith('correct #{n} set'))", timeout=10000)
        fix = app.state.armada.session.recorder.events[-1]
        assert fix.kind == "correction" and fix.resolution == "set" and fix.target == n
        (ch,) = fix.changes
        assert ch.ship == "L1"
        assert [ch.after.x_mm, ch.after.y_mm, ch.after.heading_deg] == pytest.approx(pose)
        page.wait_for_selector("#g-ships path.ship.by-hand", state="attached", timeout=10000)
        assert "L1 (set)" in page.locator("#g-labels text").all_text_contents()
        page.wait_for_function(
            "Math.abs(app.live.ships.find((s) => s.id === 'L1').heading - 90) < 3",
            timeout=10000)
        _shot(page, "13-set-logged")
        ro.wait_for_selector("#set-card", state="hidden", timeout=10000)  # settled elsewhere
