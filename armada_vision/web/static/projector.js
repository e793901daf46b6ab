// The projector page: draws what /api/projector/frame says, in projector pixels, on black.
// Modes: "overlays" (zones, ruler, last move), "blank" (black, for a clean camera frame) and
// "pattern" (the calibration board). Every mode change is acknowledged once it is on screen,
// so the capture side knows from when its frames are clean.
"use strict";

const LAYERS = ["reach", "step", "firing", "ruler", "line_of_fire", "last_move"];
const canvas = document.getElementById("screen");
const ctx = canvas.getContext("2d");
const panel = document.getElementById("panel");
const note = document.getElementById("note");
const statusEl = document.getElementById("status");

let frame = null;          // newest frame JSON from the server
let local = {};            // style overrides of this screen (query params, the panel)
let acked = 0;             // newest request_id acknowledged
let pattern = { id: -1, img: null };

// The join token (needed to change style or calibrate on the referee server): from ?token=
// once, then kept like the phone page keeps it.
const token = (() => {
  const url = new URL(location.href);
  const t = url.searchParams.get("token");
  if (t) {
    localStorage.setItem("armada-token", t);
    url.searchParams.delete("token");
    history.replaceState(null, "", url);
  }
  return localStorage.getItem("armada-token");
})();

function headers() {
  const h = { "Content-Type": "application/json" };
  if (token) h["X-Armada-Token"] = token;
  return h;
}

function queryOverrides() {
  const q = new URLSearchParams(location.search);
  const o = { colors: {} };
  for (const k of ["brightness", "fill_alpha", "line_px"]) {
    if (q.has(k) && !Number.isNaN(parseFloat(q.get(k)))) o[k] = parseFloat(q.get(k));
  }
  if (q.has("fill")) o.fill_alpha = parseFloat(q.get("fill"));
  if (q.has("hide")) o.hidden = q.get("hide").split(",").filter((s) => LAYERS.includes(s));
  for (const l of LAYERS) {
    const c = q.get("color_" + l);
    if (c && /^#?[0-9a-fA-F]{6}$/.test(c)) o.colors[l] = c.startsWith("#") ? c : "#" + c;
  }
  return o;
}

function style() {
  const s = frame ? frame.style : { colors: {}, brightness: 0.8, fill_alpha: 0.25,
                                    line_px: 3, hidden: [] };
  return {
    brightness: local.brightness ?? s.brightness,
    fill_alpha: local.fill_alpha ?? s.fill_alpha,
    line_px: local.line_px ?? s.line_px,
    hidden: local.hidden ?? s.hidden,
    colors: Object.assign({}, s.colors, local.colors || {}),
  };
}

function rgba(hex, k) {
  const n = parseInt(hex.slice(1), 16);
  const r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
  return `rgb(${Math.round(r * k)}, ${Math.round(g * k)}, ${Math.round(b * k)})`;
}

function path(rings, closed) {
  const p = new Path2D();
  for (const ring of rings) {
    if (!ring.length) continue;
    p.moveTo(ring[0][0], ring[0][1]);
    for (let i = 1; i < ring.length; i++) p.lineTo(ring[i][0], ring[i][1]);
    if (closed) p.closePath();
  }
  return p;
}

function drawOverlays(st) {
  const k = Math.max(0, Math.min(1, st.brightness));
  const order = (o) => LAYERS.indexOf(o.layer);
  const list = [...frame.overlays].sort((a, b) => order(a) - order(b));
  for (const o of list) {
    if (st.hidden.includes(o.layer)) continue;
    const colour = st.colors[o.layer] || "#ffffff";
    const p = path(o.rings_px, o.closed);
    if (o.closed && st.fill_alpha > 0) {
      ctx.fillStyle = rgba(colour, k * st.fill_alpha);  // light adds: dimmer = less light
      ctx.fill(p, "evenodd");
    }
    ctx.lineWidth = st.line_px;
    ctx.lineJoin = "round";
    ctx.strokeStyle = rgba(colour, k);
    ctx.stroke(p);
  }
}

function draw() {
  if (!frame) return;
  const [w, h] = frame.size;
  if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  ctx.fillStyle = "#000";
  ctx.fillRect(0, 0, w, h);
  const moved = frame.status && frame.status.moved;
  note.hidden = (frame.calibrated && !moved) || frame.mode !== "overlays";
  if (!frame.calibrated) {
    note.textContent = "Projector not calibrated: press C (with the camera running) or load a "
      + "calibration file (armada-vision projector calibrate).";
  } else if (moved) {
    note.textContent = frame.status.reason + " (press C)";
  }
  if (frame.mode === "pattern") {
    if (pattern.img && pattern.id === frame.request_id) ctx.drawImage(pattern.img, 0, 0, w, h);
  } else if (frame.mode === "overlays") {
    drawOverlays(style());
  }
}

function screenSize() {
  const d = window.devicePixelRatio || 1;
  return [Math.round(window.screen.width * d), Math.round(window.screen.height * d)];
}

function acknowledge(id) {
  // Two animation frames: the drawn frame has been handed to the display.
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (id <= acked) return;
    acked = id;
    const body = { request_id: id };
    if (frame && !frame.calibrated) body.size = screenSize();
    fetch("/api/projector/ack", { method: "POST", headers: { "Content-Type": "application/json" },
                                  body: JSON.stringify(body) }).catch(() => {});
  }));
}

function show(f) {
  frame = f;
  if (f.mode === "pattern" && pattern.id !== f.request_id) {
    const img = new Image();
    img.onload = () => {
      pattern = { id: f.request_id, img };
      draw();
      if (frame.request_id === f.request_id) acknowledge(f.request_id);
    };
    img.src = "/api/projector/pattern.png?r=" + f.request_id;
    draw();
    return;
  }
  draw();
  if (f.request_id > acked) acknowledge(f.request_id);
  if (f.status && f.status.reason) statusEl.textContent = f.status.reason;
  else if (f.status && f.status.ok && f.status.residual_mean_mm !== undefined) {
    statusEl.textContent = `calibrated: ${f.status.residual_mean_mm} mm mean residual`;
  }
}

async function poll() {
  let since = 0;
  for (;;) {
    try {
      const r = await fetch(`/api/projector/frame?since=${since}`, { cache: "no-store" });
      if (!r.ok) throw new Error(String(r.status));
      since = parseInt(r.headers.get("X-Version") || "0", 10);
      show(await r.json());
    } catch (e) {
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
}

// --- settings panel ---------------------------------------------------------------------
function buildPanel() {
  const fs = document.getElementById("layers");
  for (const l of LAYERS) {
    const lab = document.createElement("label");
    lab.innerHTML = `<span><input type="checkbox" data-layer="${l}"> ${l.replace(/_/g, " ")}`
      + `</span><input type="color" data-color="${l}">`;
    fs.appendChild(lab);
  }
  panel.addEventListener("input", (ev) => {
    const t = ev.target;
    if (t.type === "range") local[t.id] = parseFloat(t.value);
    if (t.dataset.color) local.colors = Object.assign(local.colors || {}, { [t.dataset.color]: t.value });
    if (t.dataset.layer) {
      local.hidden = LAYERS.filter((l) => !panel.querySelector(`[data-layer=${l}]`).checked);
    }
    draw();
  });
  document.getElementById("save").onclick = async () => {
    const r = await fetch("/api/projector/style", { method: "PUT", headers: headers(),
                                                     body: JSON.stringify(style()) });
    statusEl.textContent = r.ok ? "saved" : "not saved: " + (await r.text());
  };
  document.getElementById("calibrate").onclick = calibrate;
  document.getElementById("check").onclick = check;
  document.getElementById("fullscreen").onclick = () => document.documentElement.requestFullscreen();
}

function fillPanel() {
  const st = style();
  for (const k of ["brightness", "fill_alpha", "line_px"]) document.getElementById(k).value = st[k];
  for (const l of LAYERS) {
    panel.querySelector(`[data-layer=${l}]`).checked = !st.hidden.includes(l);
    panel.querySelector(`[data-color=${l}]`).value = st.colors[l] || "#ffffff";
  }
}

async function check() {
  statusEl.textContent = "checking…";
  try {
    const r = await fetch("/api/projector/check", { method: "POST", headers: headers() });
    const j = await r.json();
    statusEl.textContent = j.moved === undefined ? "check failed: " + (j.reason || j.error)
      : (j.moved ? j.reason : `still calibrated: ${j.residual_mean_mm} mm residual`);
  } catch (e) { statusEl.textContent = "check failed: " + e; }
}

async function calibrate() {
  statusEl.textContent = "calibrating…";
  try {
    const r = await fetch("/api/projector/calibrate", { method: "POST", headers: headers() });
    const j = await r.json();
    statusEl.textContent = j.ok ? `calibrated: ${j.residual_mean_mm} mm mean, `
      + `${j.residual_max_mm} mm max residual (${j.points} corners)`
      : "calibration failed: " + (j.reason || j.error || j.detail);
  } catch (e) { statusEl.textContent = "calibration failed: " + e; }
}

function togglePanel() {
  panel.hidden = !panel.hidden;
  document.body.classList.toggle("pointer", !panel.hidden);
  if (!panel.hidden) fillPanel();
}

document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT") return;
  if (ev.key === "s" || ev.key === "S") togglePanel();
  if (ev.key === "f" || ev.key === "F") document.documentElement.requestFullscreen();
  if (ev.key === "c" || ev.key === "C") calibrate();
  if (ev.key === "k" || ev.key === "K") check();
});
canvas.addEventListener("dblclick", togglePanel);

local = queryOverrides();
buildPanel();
poll();
