// armada-vision phone page: live frames, overlays drawn from table-mm geometry mapped through
// the calibration's homography (H_image_from_table, image px with y down), taps → verdicts.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const PLAYER_COLORS = { A: "#ff6b5b", B: "#4fa8ff" };
const NAMED = { red: "#ff4d4d", yellow: "#ffe14d", green: "#3ddc84", blue: "#4f8dff",
  black: "#cfd6df", orange: "#ff9f1c", cyan: "#3ee6e6", purple: "#b36bff", white: "#ffffff",
  clear: "#a0e0ff" };
const TAP_RADIUS_SCREEN_PX = 34;

const app = {
  token: null, control: false, view: "live",
  live: null, photo: null,          // latest states of each view
  selected: null, zones: null, shot: null,
  frameSeq: 0, frameLoading: false, wantedSeq: 0, lagMs: [],
  lastMoveAt: null, fit: true,
  log: null, logIdx: null, logN: -1,   // the game log's timeline; logIdx null: follow the end
  edit: null,   // placing pieces by hand for a flag: {flag, ship, poses: {id: [x, y, h]}, drag}
};

// ---- token: from the join URL once, then kept on this phone ---------------------------------
(function readToken() {
  const url = new URL(location.href);
  const t = url.searchParams.get("token");
  if (t) {
    localStorage.setItem("armada-token", t);
    url.searchParams.delete("token");
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
  app.token = localStorage.getItem("armada-token");
})();

async function api(method, path, body, isForm) {
  const headers = {};
  if (app.token) headers["X-Armada-Token"] = app.token;
  const opts = { method, headers };
  if (body !== undefined) {
    if (isForm) opts.body = body;
    else { headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  }
  let res, data;
  try {
    res = await fetch(path, opts);
    data = await res.json();
  } catch (e) {
    return { ok: false, status: 0, data: { error: "the server cannot be reached" } };
  }
  return { ok: res.ok, status: res.status, data };
}

// ---- geometry: table mm → image px -----------------------------------------------------------
function state() { return app.view === "photo" ? app.photo : app.live; }
function H() { const s = state(); return s && s.H_image_from_table; }
function toPx(p) {
  const h = H();
  const w = h[2][0] * p[0] + h[2][1] * p[1] + h[2][2];
  return [(h[0][0] * p[0] + h[0][1] * p[1] + h[0][2]) / w,
          (h[1][0] * p[0] + h[1][1] * p[1] + h[1][2]) / w];
}
function toTable(px) {   // image px → table mm: the inverse of H (a 3×3 by cofactors)
  const h = H();
  const [a, b, c] = h[0], [d, e, f] = h[1], [g, k, l] = h[2];
  const inv = [[e * l - f * k, c * k - b * l, b * f - c * e],
    [f * g - d * l, a * l - c * g, c * d - a * f], [d * k - e * g, b * g - a * k, a * e - b * d]];
  const w = inv[2][0] * px[0] + inv[2][1] * px[1] + inv[2][2];
  return [(inv[0][0] * px[0] + inv[0][1] * px[1] + inv[0][2]) / w,
          (inv[1][0] * px[0] + inv[1][1] * px[1] + inv[1][2]) / w];
}
function ringPath(ring) {
  return ring.map((p, i) => (i ? "L" : "M") + toPx(p).map((v) => v.toFixed(1)).join(",")).join("")
    + "Z";
}
function polysPath(polys) { return polys.map((rings) => rings.map(ringPath).join("")).join(""); }
function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function clear(g) { while (g.firstChild) g.removeChild(g.firstChild); }
function scale() {  // image px per screen px
  const s = state();
  const w = $("canvas").clientWidth || 1;
  return s && s.image_size ? s.image_size[0] / w : 1;
}
function playerColor(ship) {
  return PLAYER_COLORS[ship.player] || NAMED[ship.player] || NAMED[ship.color] || "#ddd";
}
function shipById(id) { const s = state(); return s && (s.ships || []).find((x) => x.id === id); }
function centroid(ship) {
  const a = toPx(ship.stern), b = toPx(ship.tip);
  return [(2 * a[0] + b[0]) / 3, (2 * a[1] + b[1]) / 3];
}
function footprint(pose, size) {  // triangle of rules.md §1 in table mm
  const d = (state().pieces || {})[size] || { w: 25.4, s: 46.229 };
  const h = pose.heading * Math.PI / 180, c = Math.cos(h), s = Math.sin(h);
  const [x, y] = pose.stern, hw = d.w / 2;
  return [[x + s * hw, y - c * hw], [x + c * d.s, y + s * d.s], [x - s * hw, y + c * hw]];
}

// ---- drawing ----------------------------------------------------------------------------------
function draw() {
  const s = state();
  const svg = $("overlay");
  ["g-area", "g-markers", "g-zones", "g-ships", "g-verdict", "g-labels", "g-edit"]
    .forEach((g) => clear($(g)));
  if (!s || !s.image_size) return;
  svg.setAttribute("viewBox", `0 0 ${s.image_size[0]} ${s.image_size[1]}`);
  svg.setAttribute("preserveAspectRatio", "none");
  frameTo(s);
  if (!s.H_image_from_table) return;
  const k = scale();
  el("path", { d: ringPath(s.play_area), fill: "none", stroke: "#ffffff88",
    "stroke-width": 1.5, "stroke-dasharray": "6 4" }, $("g-area"));
  for (const m of s.markers || []) {
    el("path", { d: ringPath(m.corners), fill: "#35c46a33", stroke: "#35c46a",
      "stroke-width": 1.5, class: "marker" }, $("g-markers"));
  }
  drawZones();
  for (const ship of s.ships || []) {
    const sel = ship.id === app.selected;
    const col = playerColor(ship);
    // a ship the players set by hand is drawn where they set it, dashed (the camera's view
    // of the piece differs)
    el("path", { d: ringPath(ship.outline), fill: col + (sel ? "66" : "33"), stroke: col,
      "stroke-width": sel ? 3 : 2, "stroke-dasharray": ship.set_by_hand ? "6 4" : "none",
      class: "ship" + (ship.set_by_hand ? " by-hand" : ""), "data-id": ship.id }, $("g-ships"));
    const [cx, cy] = centroid(ship);
    const label = ship.id + (ship.damage ? " " + "✕".repeat(ship.damage) : "")
      + (ship.set_by_hand ? " (set)" : "");
    el("text", { x: cx, y: cy - 14 * k, "font-size": 13 * k, "text-anchor": "middle",
      fill: "#fff", stroke: "#000", "stroke-width": 3, "paint-order": "stroke",
      "font-weight": 700, class: "ship-label" }, $("g-labels"), label);
  }
  drawVerdict();
  drawEdit();
}

// Fit the table: crop the view to the markers and play area (image px), so ships are big
// enough to tap on a phone; the canvas (image + overlay) is scaled and shifted inside the stage.
function frameTo(s) {
  const [W, Hh] = s.image_size;
  let box = [0, 0, W, Hh];
  if (app.fit && s.H_image_from_table) {
    const pts = s.play_area.concat(...(s.markers || []).map((m) => m.corners)).map(toPx);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    const pad = 0.03 * Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    box = [Math.max(0, Math.min(...xs) - pad), Math.max(0, Math.min(...ys) - pad),
           Math.min(W, Math.max(...xs) + pad), Math.min(Hh, Math.max(...ys) + pad)];
  }
  const bw = box[2] - box[0], bh = box[3] - box[1];
  $("stage").style.aspectRatio = `${bw} / ${bh}`;
  $("stage").style.setProperty("--ar", String(bw / bh));
  const c = $("canvas").style;
  c.width = (100 * W / bw) + "%"; c.height = (100 * Hh / bh) + "%";
  c.left = (-100 * box[0] / bw) + "%"; c.top = (-100 * box[1] / bh) + "%";
}

function drawZones() {
  const z = app.zones;
  if (!z || z.ship !== app.selected) return;
  const g = $("g-zones");
  const layers = [["reach", "#6f7dff", "22"], ["step", "#3ee6d0", "40"],
    ["port", "#ff9f1c", "40", "firing"], ["starboard", "#e84dff", "40", "firing"]];
  for (const [name, col, alpha, group] of layers) {
    const polys = group ? (z.firing || {})[name] : z[name];
    if (!polys || !polys.length) continue;
    el("path", { d: polysPath(polys), fill: col + alpha, stroke: col, "stroke-width": 1.5,
      "fill-rule": "evenodd", class: "zone zone-" + name }, g);
  }
}

function drawVerdict() {
  const g = $("g-verdict");
  const v = app.shot;
  if (v && !v.pending && v.shooter === app.selected) {
    const target = shipById(v.target);
    if (target) {
      el("path", { d: ringPath(target.outline), fill: "none", stroke: "#ffd23f",
        "stroke-width": 3, "stroke-dasharray": "5 3" }, g);
    }
    if (v.line_of_fire) {
      el("path", { d: ringPath(v.line_of_fire), fill: "#ffffff30", stroke: "#ffffff",
        "stroke-width": 1, class: "line-of-fire" }, g);
    }
    if (v.ruler) {
      const col = v.verdict === "yes" ? "#35c46a" : v.in_doubt ? "#ffb020" : "#ff5d5d";
      el("path", { d: ringPath(v.ruler), fill: col + "55", stroke: col, "stroke-width": 2.5,
        class: "ruler" }, g);
    }
  }
  const m = app.view === "live" ? app.live && app.live.last_move : null;
  if (m && m.steps && app.showMove) {
    const ship = shipById(m.ship);
    const size = ship ? ship.size : "small";
    let prev = m.before;
    for (const [i, st] of m.steps.entries()) {
      const bad = m.failed_step && i + 1 >= m.failed_step;
      el("path", { d: ringPath(footprint(st, size)), fill: "none",
        stroke: bad ? "#ff5d5d" : "#ffd23f", "stroke-width": 2, "stroke-dasharray": "4 3",
        class: "move-step" }, g);
      const a = toPx(prev.stern), b = toPx(st.stern);
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#ffd23f",
        "stroke-width": 1.5 }, g);
      prev = st;
    }
  }
}

// ---- cards ---------------------------------------------------------------------------------
function esc(t) {
  return String(t ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;" }[c]));
}
function fmt(v, unit) { return v === null || v === undefined ? "–" : `${v.toFixed(2)} ${unit}`; }
function verdictWord(v) { return v.verdict === "yes" ? "YES" : v.in_doubt ? "NO (in doubt)" : "NO"; }
function verdictClass(v) { return v.verdict === "yes" ? "yes" : v.in_doubt ? "doubt" : "no"; }

// Replace an element's HTML only when it differs; true when it was replaced.
function setHtml(node, html) {
  if (node.dataset.html === html) return false;
  node.dataset.html = html;
  node.innerHTML = html;
  return true;
}

function renderCard() {
  const card = $("card");
  const ship = app.selected && shipById(app.selected);
  if (!ship) {
    setHtml(card, `<p class="hint" id="hint">Tap a ship to see where it can go and what it
      can hit; then tap an enemy ship to ask whether the shot hits.</p>`);
    return;
  }
  let html = `<div class="row"><h2>${esc(ship.id)} · ${esc(ship.size)} · player
    ${esc(ship.player)}</h2><button class="btn small" id="close-sel">✕</button></div>
    <p class="figs">damage ${ship.damage}/${ship.pips} · heading ${ship.heading.toFixed(1)}° ·
    σ ${ship.sigma_mm.toFixed(2)} mm</p>`;
  const v = app.shot;
  if (v && v.pending) {
    html += `<p class="hint">Asking whether ${esc(v.shooter)} can hit ${esc(v.target)}…</p>`;
  } else if (v && v.shooter === ship.id) {
    html += `<div class="verdict ${verdictClass(v)}" id="verdict">${verdictWord(v)}</div>
      <p class="reason" id="reason">${esc(v.shooter)} → ${esc(v.target)}: ${esc(v.reason)}</p>
      <p class="figs">margin ${fmt(v.margin_mm, "mm")} · allowance ${fmt(v.allowance_mm, "mm")}
      ${v.side ? "· " + esc(v.side) + " broadside" : ""} · decided by ${esc(v.decided_by)}</p>`;
    if (v.verdict === "yes") {
      html += `<button class="btn hit" id="hit-btn" ${v.can_record ? "" : "disabled"}>
        Record hit on ${esc(v.target)}</button>`;
      if (!app.control) html += `<p class="figs">Read-only: recording needs the join link.</p>`;
      if (v.turn_note) html += `<p class="figs">${esc(v.turn_note)}</p>`;
    }
  } else {
    const z = app.zones && app.zones.ship === ship.id ? app.zones : null;
    html += `<p class="hint">${z ? "Zones shown." : "Loading zones…"} Tap an enemy ship to
      shoot at it.</p>`;
    if (z && z.notes && z.notes.length) html += `<p class="figs">${esc(z.notes.join("; "))}</p>`;
  }
  if (!setHtml(card, html)) return;
  $("close-sel").onclick = () => select(null);
  const hb = $("hit-btn");
  if (hb) hb.onclick = () => control("/api/hit", { shooter: v.shooter, target: v.target,
    view: app.view === "photo" ? "upload" : "live" });
}

function renderMove() {
  const m = app.live && app.live.last_move;
  const card = $("move-card");
  if (!m || app.view !== "live") { card.hidden = true; return; }
  card.hidden = false;
  const facts = [m.steps ? `${m.steps.length} step(s)` : "",
    m.failed_step ? `fails at step ${m.failed_step}` : "",
    m.blocker ? `blocked by ${esc(m.blocker)}` : "",
    m.margin_mm !== null && m.margin_mm !== undefined ? `margin ${fmt(m.margin_mm, "mm")}` : "",
    m.allowance_mm ? `allowance ${fmt(m.allowance_mm, "mm")}` : ""].filter(Boolean);
  const html = `<div class="row"><h2>Move of ${esc(m.ship)}</h2>
    <span class="verdict ${verdictClass(m)}" style="font-size:20px">${verdictWord(m)}</span></div>
    <p class="reason" id="move-reason">${esc(m.reason)}</p>
    <p class="figs">${facts.join(" · ")}${m.turn_note ? "<br>" + esc(m.turn_note) : ""}</p>
    ${m.steps && m.steps.length ? `<button class="btn small" id="show-move">${
      app.showMove ? "Hide" : "Show"} steps</button>` : ""}`;
  if (!setHtml(card, html) || !$("show-move")) return;
  $("show-move").onclick = () => { app.showMove = !app.showMove; renderMove(); draw(); };
}

// The ship list is rebuilt only when it changed, so a pushed state never swaps a button
// out from under a finger.
function renderShipList(ships, sunkShips) {
  const list = $("ships");
  const key = JSON.stringify([app.selected, ships.map((x) => [x.id, x.player, x.damage]),
    sunkShips.map((x) => x.id)]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  clear(list);
  for (const ship of ships) {
    const li = document.createElement("li");
    if (ship.id === app.selected) li.className = "sel";
    li.innerHTML = `<span class="dot" style="background:${playerColor(ship)}"></span>
      <span class="id" data-id="${esc(ship.id)}">${esc(ship.id)}</span>
      <span class="dmg" title="damage">${"●".repeat(ship.damage)}${"○".repeat(
        Math.max(0, ship.pips - ship.damage))}</span>
      <button class="btn small" aria-label="rule one damage on ${esc(ship.id)}"
        title="a hit the players rule themselves">+1</button>`;
    li.querySelector(".id").onclick = () => select(ship.id);
    li.querySelector("button").onclick = () => control("/api/damage", { ship: ship.id });
    list.appendChild(li);
  }
  for (const ship of sunkShips) {
    const li = document.createElement("li");
    li.className = "sunk";
    li.innerHTML = `<span class="dot" style="background:${playerColor(ship)}"></span>
      <span class="id">${esc(ship.id)}</span><span class="dmg">sunk: take it off the table</span>`;
    list.appendChild(li);
  }
}

function renderTurn() {
  const s = app.live;
  if (!s) return;
  const t = s.turn;
  if (!t.started) {
    $("turn-title").textContent = "Waiting for the game";
    $("actions").textContent = "";
    $("turn-detail").textContent = "A game starts when the table has settled with two fleets.";
  } else {
    $("turn-title").textContent = t.result ? `${t.result.winner} wins`
      : `Turn ${t.number} · ${t.player} to play`;
    $("actions").textContent = `${t.actions_left} action${t.actions_left === 1 ? "" : "s"} left`;
    const fired = Object.entries(t.fired).map(([k, n]) => `${k}×${n}`).join(", ");
    $("turn-detail").textContent = `moved: ${t.moved.join(", ") || "none"} · fired: ${
      fired || "none"}` + (t.pending_flags.length ? ` · ${t.pending_flags.length} flag(s) to settle` : "");
  }
  renderShipList((state() || s).ships || [], (state() || s).sunk || []);
  $("undo-btn").disabled = !s.can_undo;
  renderFlags(s.flags || []);
  const log = $("log");
  clear(log);
  log.hidden = !!(app.log && app.log.timeline.length);
  for (const line of (s.log || []).slice().reverse()) {
    const li = document.createElement("li");
    li.textContent = line;
    log.appendChild(li);
  }
  if ((s.log_n || 0) !== app.logN) loadLog(s.log_n || 0);
}

// Flags the players settle: Accept (it stands) or Revert (the pieces go back).
function renderFlags(flags) {
  const ul = $("flags");
  const key = JSON.stringify(flags.map((f) => f.n));
  if (ul.dataset.key === key) return;
  ul.dataset.key = key;
  clear(ul);
  ul.hidden = !flags.length;
  for (const f of flags) {
    const li = document.createElement("li");
    li.className = "flag";
    li.dataset.n = String(f.n);
    li.innerHTML = `<p class="reason">⚑ #${f.n}: ${esc(f.reason)}</p>
      <button class="btn small accept">Accept</button>
      <button class="btn small revert">Revert</button>
      <button class="btn small set">Set…</button>`;
    li.querySelector(".accept").onclick = () =>
      control("/api/flags", { flag: f.n, resolution: "accept" });
    li.querySelector(".revert").onclick = () =>
      control("/api/flags", { flag: f.n, resolution: "revert" });
    li.querySelector(".set").onclick = () => startEdit(f);
    ul.appendChild(li);
  }
  if (app.edit && !flags.some((f) => f.n === app.edit.flag)) endEdit();   // settled elsewhere
}

// ---- placing pieces by hand: a flag answered with the poses the players set -----------------
// Poses are [x_mm, y_mm, heading_deg] in the table frame; the outline drawn is the game's
// silhouette of the ship (as recorded) moved rigidly to the pose being set.
function gameShip(id) { return ((app.live || {}).game_ships || []).find((g) => g.id === id); }
function norm360(h) { return ((h % 360) + 360) % 360; }
function placed(g, pose) {
  const [x, y, h] = pose;
  const a = (h - g.heading) * Math.PI / 180, c = Math.cos(a), s = Math.sin(a);
  const move = (p) => {
    const dx = p[0] - g.stern[0], dy = p[1] - g.stern[1];
    return [x + c * dx - s * dy, y + s * dx + c * dy];
  };
  return { outline: g.outline.map(move), tip: move(g.tip), stern: [x, y] };
}

function startEdit(f) {
  const ships = (app.live && app.live.game_ships) || [];
  const order = f.ships.concat(ships.map((g) => g.id).filter((id) => !f.ships.includes(id)));
  if (!order.length) return;
  if (app.view !== "live") setView("live");
  app.edit = { flag: f.n, ship: order[0], order, poses: {}, touched: new Set(), drag: null };
  const sel = $("set-ship");
  clear(sel);
  for (const id of order) {
    const o = document.createElement("option");
    o.value = id;
    o.textContent = id + (f.ships.includes(id) ? " (flagged)" : "");
    sel.appendChild(o);
  }
  $("set-title").textContent = `Set a piece for flag #${f.n}`;
  $("set-msg").hidden = app.control;
  $("set-msg").textContent = app.control ? "" : "Read-only: saving needs the join link.";
  $("set-card").hidden = false;
  document.body.classList.add("editing");
  editShip(order[0]);
  $("stage").scrollIntoView({ block: "start" });
}

function editShip(id) {
  const e = app.edit, g = gameShip(id);
  if (!e || !g) return;
  e.ship = id;
  if (!e.poses[id]) e.poses[id] = [g.stern[0], g.stern[1], g.heading];
  $("set-ship").value = id;
  showPose();
  draw();
}

function showPose() {
  const e = app.edit;
  const [x, y, h] = e.poses[e.ship];
  $("set-x").value = x.toFixed(1); $("set-y").value = y.toFixed(1);
  $("set-h").value = norm360(h).toFixed(1);
  document.body.dataset.editPose = JSON.stringify(e.poses[e.ship]);
}

function setPose(pose, fromInputs) {
  const e = app.edit;
  if (!e) return;
  e.poses[e.ship] = [pose[0], pose[1], norm360(pose[2])];
  e.touched.add(e.ship);
  if (!fromInputs) showPose();
  else document.body.dataset.editPose = JSON.stringify(e.poses[e.ship]);
  draw();
}

function endEdit() {
  app.edit = null;
  $("set-card").hidden = true;
  document.body.classList.remove("editing");
  delete document.body.dataset.editPose;
  draw();
}

async function submitEdit() {
  const e = app.edit;
  if (!e) return;
  const ids = [...new Set([...e.touched, e.ship])];
  const poses = ids.map((id) => ({ ship: id, x_mm: e.poses[id][0], y_mm: e.poses[id][1],
    heading_deg: e.poses[id][2] }));
  const r = await control("/api/flags", { flag: e.flag, resolution: "set", poses });
  if (r.ok) { endEdit(); return; }
  $("set-msg").textContent = r.data.error || `refused (${r.status})`;   // beside the panel too
  $("set-msg").hidden = false;
}

function drawEdit() {
  const e = app.edit;
  if (!e || app.view !== "live" || !H()) return;
  const k = scale();
  for (const [id, pose] of Object.entries(e.poses)) {
    const g = gameShip(id);
    if (!g) continue;
    const p = placed(g, pose), cur = id === e.ship;
    el("path", { d: ringPath(p.outline), fill: cur ? "#ffd23f55" : "#ffd23f22",
      stroke: "#ffd23f", "stroke-width": cur ? 3 : 1.5, "stroke-dasharray": "5 3",
      class: "edit-ship", "data-id": id }, $("g-edit"));
    if (!cur) continue;
    const t = toPx(p.tip), c = toPx(p.stern);
    el("circle", { cx: t[0], cy: t[1], r: 11 * k, fill: "#ffd23f", stroke: "#000",
      "stroke-width": 1.5, class: "edit-handle" }, $("g-edit"));
    el("circle", { cx: c[0], cy: c[1], r: 4 * k, fill: "#000", stroke: "#ffd23f",
      "stroke-width": 1.5, class: "edit-stern" }, $("g-edit"));
  }
}

function pointerTable(evt) {   // a pointer's position in table mm
  return toTable(pointerPx(evt));
}

$("overlay").addEventListener("pointerdown", (evt) => {
  const e = app.edit;
  if (!e || app.view !== "live" || !H()) return;
  const cls = evt.target.getAttribute("class") || "";
  const id = evt.target.getAttribute("data-id");
  if (cls.includes("edit-ship") && id !== e.ship) editShip(id);
  // a drag anywhere else moves the ship being set by as much: a small piece on a phone is
  // hard to grab
  const at = pointerTable(evt), pose = e.poses[e.ship];
  e.drag = cls.includes("edit-handle") ? { turn: true }
    : { dx: pose[0] - at[0], dy: pose[1] - at[1] };
  $("overlay").setPointerCapture(evt.pointerId);
  evt.preventDefault();
});
$("overlay").addEventListener("pointermove", (evt) => {
  const e = app.edit;
  if (!e || !e.drag) return;
  const at = pointerTable(evt), pose = e.poses[e.ship];
  if (e.drag.turn) {
    setPose([pose[0], pose[1], Math.atan2(at[1] - pose[1], at[0] - pose[0]) * 180 / Math.PI]);
  } else {
    setPose([at[0] + e.drag.dx, at[1] + e.drag.dy, pose[2]]);
  }
});
["pointerup", "pointercancel"].forEach((t) => $("overlay").addEventListener(t, () => {
  if (app.edit) app.edit.drag = null;
}));

$("set-ship").onchange = () => editShip($("set-ship").value);
for (const id of ["set-x", "set-y", "set-h"]) {
  $(id).addEventListener("input", () => {
    const v = ["set-x", "set-y", "set-h"].map((k) => parseFloat($(k).value));
    if (v.every(Number.isFinite)) setPose(v, true);
  });
}
$("set-ccw").onclick = () => { const p = app.edit.poses[app.edit.ship]; setPose([p[0], p[1], p[2] + 5]); };
$("set-cw").onclick = () => { const p = app.edit.poses[app.edit.ship]; setPose([p[0], p[1], p[2] - 5]); };
$("set-submit").onclick = () => submitEdit();
$("set-cancel").onclick = () => endEdit();

function renderStatus() {
  const s = state();
  const c = $("calib");
  if (!s) return;
  const cal = s.calibration || {};
  if (cal.ok) {
    c.className = "pill ok";
    c.textContent = `${(cal.markers_found || []).length} markers · ${
      (cal.reprojection_error_px ?? 0).toFixed(2)} px`;
  } else {
    c.className = "pill bad";
    c.textContent = cal.reason || "not calibrated";
  }
  c.title = cal.reason || "calibration";
  const m = $("mode");
  m.className = "pill " + (app.control ? "ok" : "");
  m.textContent = app.control ? "control" : "read-only";
}

function renderMotion() {
  const s = state();
  $("motion-badge").hidden = !(s && app.view === "live" && (s.occluded || s.moving));
  $("motion-badge").textContent = s && s.occluded
    ? "hand over the table: pieces as last seen still" : "pieces moving: waiting for the table to settle";
}

function renderAll() {
  renderStatus(); draw(); renderCard(); renderMove(); renderTurn(); renderMotion();
}

// ---- taps and actions -----------------------------------------------------------------------
function pointerPx(evt) {   // a pointer's position in the overlay's (image px) frame
  const svg = $("overlay");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX; pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [p.x, p.y];
}

function nearestShip(evt) {
  const s = state();
  if (!s || !s.H_image_from_table) return null;
  const p = pointerPx(evt);
  let best = null, bestD = TAP_RADIUS_SCREEN_PX * scale();
  for (const ship of s.ships || []) {
    const pts = [centroid(ship), toPx(ship.stern), toPx(ship.tip)];
    for (const q of pts) {
      const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
      if (d < bestD) { bestD = d; best = ship; }
    }
  }
  return best;
}

function tapShip(ship) {
  const cur = app.selected && shipById(app.selected);
  if (!ship) return select(null);
  if (cur && cur.id !== ship.id && cur.player !== ship.player) return askShot(cur.id, ship.id);
  if (cur && cur.id === ship.id && app.shot) {
    app.shot = null; tellProjector(cur.id, null); renderAll(); return;
  }
  return select(ship.id === app.selected ? null : ship.id);
}

// The projector follows the phone that has control (on the live view): its selected ship and
// the shot it asked about. Read-only phones only look.
function tellProjector(ship, target) {
  if (!app.control || app.view !== "live") return;
  api("POST", "/api/select", target ? { ship, target } : { ship });
}

async function select(id) {
  app.selected = id; app.shot = null;
  tellProjector(id, null);
  if (!id) { app.zones = null; renderAll(); return; }
  if (!app.zones || app.zones.ship !== id) app.zones = null;
  renderAll();
  const view = app.view === "photo" ? "upload" : "live";
  const r = await api("GET", `/api/ships/${encodeURIComponent(id)}/zones?view=${view}`);
  if (app.selected !== id) return;
  if (r.ok) app.zones = r.data; else showError(r.data.error);
  renderAll();
}

async function askShot(shooter, target) {
  app.shot = { shooter, target, pending: true };
  renderCard();
  tellProjector(shooter, target);
  const view = app.view === "photo" ? "upload" : "live";
  const r = await api("POST", "/api/shot", { shooter, target, view });
  if (r.ok) app.shot = r.data; else { app.shot = null; showError(r.data.error); }
  renderAll();
}

async function control(path, body) {
  const r = await api("POST", path, body);
  if (!r.ok) { showError(r.data.error || `refused (${r.status})`); return r; }
  $("control-msg").hidden = true;
  const st = r.data.state;
  if (st && st.view === "live") app.live = Object.assign({}, app.live, st);
  if (st && st.view === "upload") app.photo = st;
  if (path === "/api/hit") app.shot = null;
  renderAll();
  return r;
}

function showError(msg) {
  const e = $("control-msg");
  e.textContent = msg;
  e.hidden = false;
}

$("overlay").addEventListener("click", (evt) => { if (!app.edit) tapShip(nearestShip(evt)); });
$("undo-btn").onclick = () => control("/api/undo");
$("end-btn").onclick = () => control("/api/turn/end");
$("live-btn").onclick = () => setView("live");
$("fit-btn").onclick = () => {
  app.fit = !app.fit;
  $("fit-btn").textContent = app.fit ? "Full frame" : "Fit table";
  $("fit-btn").setAttribute("aria-pressed", String(app.fit));
  draw();
};
$("photo").addEventListener("change", async (evt) => {
  const f = evt.target.files[0];
  if (!f) return;
  const fd = new FormData();
  fd.append("file", f);
  $("lag").textContent = "uploading…";
  const r = await api("POST", "/api/upload", fd, true);
  evt.target.value = "";
  if (!r.ok) { showError(r.data.error); $("lag").textContent = ""; return; }
  app.photo = r.data;
  setView("photo");
});

function setView(v) {
  app.view = v; app.selected = null; app.zones = null; app.shot = null;
  $("view-badge").hidden = v !== "photo";
  $("live-btn").hidden = v !== "photo";
  if (v === "photo") $("frame").src = "/api/upload.jpg?n=" + Date.now();
  else requestFrame(app.wantedSeq, true);
  renderAll();
}

// ---- live frames and pushed state --------------------------------------------------------------
function requestFrame(seq, force) {
  if (app.view !== "live") return;
  app.wantedSeq = Math.max(app.wantedSeq, seq);
  if (app.frameLoading && !force) return;
  if (app.wantedSeq <= app.frameSeq && !force) return;
  app.frameLoading = true;
  app.loadingSeq = app.wantedSeq;
  $("frame").src = "/api/frame.jpg?seq=" + app.wantedSeq;
}
$("frame").addEventListener("load", () => {
  app.frameLoading = false;
  if (app.view !== "live") return;
  app.frameSeq = app.loadingSeq;
  if (app.capturedAt) {
    const lag = Date.now() - app.capturedAt[app.frameSeq];
    if (isFinite(lag)) {
      app.lagMs.push(lag);
      if (app.lagMs.length > 30) app.lagMs.shift();
      const med = app.lagMs.slice().sort((a, b) => a - b)[app.lagMs.length >> 1];
      const s = app.live || {};
      $("lag").textContent = `frame lag ${med.toFixed(0)} ms · vision ${s.vision_ms ?? "–"} ms`;
    }
  }
  document.body.dataset.frameSeq = String(app.frameSeq);
  if (app.wantedSeq > app.frameSeq) requestFrame(app.wantedSeq);
});
$("frame").addEventListener("error", () => { app.frameLoading = false; });

function onState(s) {
  const first = !app.live;
  const prevMove = app.live && app.live.last_move;
  app.live = s;
  if (s.last_move && (!prevMove || prevMove.at !== s.last_move.at)) app.showMove = true;
  if (app.selected && !shipById(app.selected)) { app.selected = null; app.zones = null; }
  document.body.dataset.stateVersion = String(s.version);
  if (app.view === "live" || first) renderAll(); else renderTurn();
}

function connect() {
  const es = new EventSource("/api/events");
  app.capturedAt = {};
  es.addEventListener("frame", (e) => {
    const f = JSON.parse(e.data);
    app.capturedAt[f.seq] = f.captured_at * 1000;
    delete app.capturedAt[f.seq - 120];
    requestFrame(f.seq);
  });
  es.addEventListener("state", (e) => onState(JSON.parse(e.data)));
  es.onerror = () => { $("calib").className = "pill warn"; $("calib").textContent = "reconnecting…"; };
}

async function start() {
  const r = await api("GET", "/api/auth");
  app.control = !!(r.ok && r.data.control);
  if (app.token && !app.control) localStorage.removeItem("armada-token");
  connect();
}
window.addEventListener("resize", () => draw());

// ---- the game log: step through the game, the table drawn (table mm) at each action ---------
async function loadLog(n) {
  app.logN = n;
  const r = await api("GET", "/api/log");
  if (!r.ok || app.logN !== n) return;
  const prev = app.log;
  if (prev && prev.game_id !== r.data.game_id) app.logIdx = null;
  app.log = r.data;
  if (app.logIdx !== null && app.logIdx >= r.data.timeline.length) app.logIdx = null;
  renderLog();
}

function logIndex() {
  const t = app.log ? app.log.timeline : [];
  return app.logIdx === null ? t.length - 1 : app.logIdx;
}

function stepLog(d) {
  const t = app.log ? app.log.timeline : [];
  if (!t.length) return;
  const i = Math.min(t.length - 1, Math.max(0, logIndex() + d));
  app.logIdx = i === t.length - 1 ? null : i;   // at the end: follow new actions again
  renderLog();
}

function eventLabel(item) {
  const e = item.event;
  if (e.kind === "correction" && e.resolution === "set") {   // the poses the players set
    const at = (e.changes || []).filter((c) => c.after).map((c) => `${c.ship} at (${
      c.after[0].toFixed(0)}, ${c.after[1].toFixed(0)}, ${c.after[2].toFixed(0)}°)`);
    return `correct #${e.target} set` + (at.length ? ": " + at.join(", ") : "");
  }
  if (item.text) return item.text;
  if (e.kind === "started") return `game starts: ${e.players.join(" v ")}`;
  if (e.kind === "setup") return `setup ${e.verdict.yes ? "checked" : "to check"}`;
  if (e.kind === "damage") return `${e.ship} damaged (${e.damage})`;
  if (e.kind === "turn_end") return `${e.player}'s turn ends`;
  if (e.kind === "result") return `${e.winner} wins`;
  return e.kind;
}

function logReason(e) {
  if (e.verdict && e.verdict.reason) return e.verdict.reason;
  return e.reason || e.note || "";
}

function renderLog() {
  const L = app.log;
  const t = L ? L.timeline : [];
  const svg = $("log-table");
  $("log-prev").disabled = !t.length || logIndex() <= 0;
  $("log-next").disabled = !t.length || logIndex() >= t.length - 1;
  if (!t.length) {
    svg.toggleAttribute("hidden", true); $("log-pos").textContent = "–"; $("log-caption").textContent = "";
    clear($("log-list")); document.body.dataset.logStep = ""; return;
  }
  const i = logIndex(), item = t[i];
  $("log-pos").textContent = `${i + 1} / ${t.length}`;
  const st = item.state;
  const label = eventLabel(item), why = logReason(item.event);
  const after = [label.includes(why) ? "" : why,
    st.result ? `${st.result.winner} wins` : `turn ${st.turn}, ${st.player} to play`];
  $("log-caption").innerHTML = `<b>#${item.event.n} ${esc(label)}</b>${
    item.undone ? " (undone)" : ""}<br>${esc(after.filter(Boolean).join(" · "))}`;
  svg.toggleAttribute("hidden", false);   // an SVG element has no .hidden property
  drawLogTable(svg, item, L.pieces);
  document.body.dataset.logStep = String(i);
  const list = $("log-list");
  const key = `${L.game_id}:${t.length}`;
  if (list.dataset.key !== key) {
    list.dataset.key = key;
    clear(list);
    t.forEach((it, k) => {
      const li = document.createElement("li");
      li.value = it.event.n;
      li.textContent = eventLabel(it);
      li.className = (it.undone ? "undone " : "") + (it.event.kind === "flagged" ? "flag" : "");
      li.onclick = () => { app.logIdx = k === t.length - 1 ? null : k; renderLog(); };
      list.appendChild(li);
    });
  }
  [...list.children].forEach((li, k) => li.classList.toggle("cur", k === i));
  const cur = list.children[i];
  if (cur && cur.scrollIntoView && app.logIdx !== null) cur.scrollIntoView({ block: "nearest" });
}

// Table mm (+y away from the viewer) → SVG user units (y down): x, maxY − y.
function drawLogTable(svg, item, pieces) {
  clear(svg);
  const st = item.state, e = item.event;
  const xs = st.play_area.map((p) => p[0]), ys = st.play_area.map((p) => p[1]);
  const pad = 20, x0 = Math.min(...xs) - pad, y1 = Math.max(...ys) + pad;
  const w = Math.max(...xs) + pad - x0, h = y1 - (Math.min(...ys) - pad);
  svg.setAttribute("viewBox", `0 0 ${w.toFixed(1)} ${h.toFixed(1)}`);
  const P = (p) => [p[0] - x0, y1 - p[1]];
  const path = (ring, close) => ring.map((p, k) => (k ? "L" : "M") + P(p).map((v) => v.toFixed(1))
    .join(",")).join("") + (close === false ? "" : "Z");
  const foot = (pose, size) => {   // rules.md §1 footprint: stern mid-base, tip ahead
    const d = (pieces || {})[size] || { w: 25.4, s: 46.229 };
    const [x, y, hd] = Array.isArray(pose) ? pose : [pose.stern[0], pose.stern[1], pose.heading];
    const a = hd * Math.PI / 180, c = Math.cos(a), s = Math.sin(a), hw = d.w / 2;
    return [[x + s * hw, y - c * hw], [x + c * d.s, y + s * d.s], [x - s * hw, y + c * hw]];
  };
  const sizeOf = (id) => { const sh = st.ships.find((x) => x.id === id); return sh ? sh.size : "small"; };
  const k = w / 360;   // user units per screen px, about
  el("path", { d: path(st.play_area), fill: "none", stroke: "#ffffff66", "stroke-width": 1,
    "stroke-dasharray": "6 4" }, svg);
  for (const ship of st.ships) {
    const col = playerColor(ship);
    const gone = ship.sunk || ship.missing;
    el("path", { d: path(foot([ship.stern[0], ship.stern[1], ship.heading], ship.size)),
      fill: gone ? "none" : col + "55", stroke: ship.sunk ? "#ff5d5d" : col,
      "stroke-width": 1.5, "stroke-dasharray": gone ? "4 3" : "none", class: "log-ship",
      "data-id": ship.id }, svg);
    const c = P([(2 * ship.stern[0] + ship.tip[0]) / 3, (2 * ship.stern[1] + ship.tip[1]) / 3]);
    el("text", { x: c[0], y: c[1] - 10 * k, "font-size": 12 * k, "text-anchor": "middle",
      fill: "#fff", stroke: "#000", "stroke-width": 3, "paint-order": "stroke",
      "font-weight": 700, class: "log-label" }, svg,
      ship.id + (ship.damage ? " " + "✕".repeat(ship.damage) : "") + (ship.sunk ? " sunk" : ""));
  }
  for (const s of st.strays || []) {
    const c = P(s.stern);
    el("circle", { cx: c[0], cy: c[1], r: 8 * k, fill: "none", stroke: "#ffb020",
      "stroke-width": 1.5, class: "log-stray" }, svg);
  }
  const v = e.verdict || {};
  if (e.kind === "move") {
    const size = sizeOf(e.ship);
    el("path", { d: path(foot(e.before, size)), fill: "none", stroke: "#cfd6df",
      "stroke-width": 1.5, "stroke-dasharray": "3 3", class: "log-before" }, svg);
    const xy = (p) => (Array.isArray(p) ? p.slice(0, 2) : p.stern);
    let prev = e.before;
    (v.steps && v.steps.length ? v.steps : [e.after]).forEach((stp, n) => {
      const bad = v.failed_step && n + 1 >= v.failed_step;
      el("path", { d: path(foot(stp, size)), fill: "none", stroke: bad ? "#ff5d5d" : "#ffd23f",
        "stroke-width": 2, "stroke-dasharray": "4 3", class: "log-step" }, svg);
      el("path", { d: path([xy(prev), xy(stp)], false), stroke: "#ffd23f", "stroke-width": 1.5,
        fill: "none" }, svg);
      prev = stp;
    });
  }
  if (e.kind === "shot") {
    if (v.line_of_fire) el("path", { d: path(v.line_of_fire), fill: "#ffffff30",
      stroke: "#ffffff", "stroke-width": 1, class: "log-line-of-fire" }, svg);
    if (v.ruler) {
      const col = v.yes ? "#35c46a" : v.in_doubt ? "#ffb020" : "#ff5d5d";
      el("path", { d: path(v.ruler), fill: col + "55", stroke: col, "stroke-width": 2,
        class: "log-ruler" }, svg);
    }
  }
  for (const ch of e.changes || []) {   // a flag's or a correction's changes
    for (const [pose, col] of [[ch.before, "#cfd6df"], [ch.after, "#ff5d5d"]]) {
      if (!pose) continue;
      el("path", { d: path(foot(pose, sizeOf(ch.ship))), fill: "none", stroke: col,
        "stroke-width": 1.5, "stroke-dasharray": "3 3", class: "log-change" }, svg);
    }
  }
}

$("log-prev").onclick = () => stepLog(-1);
$("log-next").onclick = () => stepLog(1);
start();
