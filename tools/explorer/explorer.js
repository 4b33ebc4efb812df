// The explorer: draws a position from the server's databases, lists its moves best first and
// plays them. Everything comes from this server's /api/v1 (no other network resources).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const GRID = 60, MARGIN = 60;  // board coordinates 0..6 to SVG pixels

const state = {
  databases: [],    // /api/v1/info
  rules: "",        // the database shown
  position: "",     // the position string shown
  answer: null,     // /api/v1/probe's answer for it
  clicked: [],      // points clicked so far toward a move on the board
};

const $ = (id) => document.getElementById(id);

async function getJson(path) {
  const res = await fetch(path);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

function query(position) {
  const q = new URLSearchParams({ position });
  if (state.rules) q.set("rules", state.rules);
  return q.toString();
}

function database() {
  return state.databases.find((d) => d.rules === state.rules) || state.databases[0];
}

// The start of the database's herd, or nothing when it holds the moving phase only.
function startPosition(db) {
  return db.herd > 0 ? `......../......../........ w ${db.herd} ${db.herd} 0` : "";
}

// Cows by point name from the position string's board field (points in string order).
function cowsOf(position) {
  const squares = position.split(" ")[0].replaceAll("/", "");
  const cows = {};
  database().board.points.forEach((p, i) => {
    if (squares[i] === "W" || squares[i] === "B") cows[p.name] = squares[i];
  });
  return cows;
}

const movePoints = (move) => move.split(/[-x]/);

function svg(tag, attributes, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

function drawBoard() {
  const board = $("board"), geometry = database().board;
  board.replaceChildren();
  const at = {};
  for (const p of geometry.points) at[p.name] = [MARGIN + GRID * p.x, MARGIN + GRID * p.y];
  for (const line of geometry.lines)
    svg("polyline", { class: "line", points: line.map((n) => at[n].join(",")).join(" ") }, board);
  const files = [...new Set(geometry.points.map((p) => p.name[0]))].sort();
  for (const f of files) {
    const x = MARGIN + GRID * (f.charCodeAt(0) - 97);
    svg("text", { class: "label", x, y: MARGIN + 6 * GRID + 40 }, board).textContent = f;
  }
  for (let r = 1; r <= 7; ++r)
    svg("text", { class: "label", x: 20, y: MARGIN + GRID * (7 - r) }, board).textContent = r;

  const cows = state.position ? cowsOf(state.position) : {};
  const moves = state.answer ? state.answer.moves || [] : [];
  const next = new Set(  // points that continue a move from those clicked
    moves.map((m) => movePoints(m.move))
      .filter((pts) => state.clicked.every((p, i) => pts[i] === p) && pts.length > state.clicked.length)
      .map((pts) => pts[state.clicked.length]));
  board.dataset.position = state.position;
  for (const p of geometry.points) {
    const [x, y] = at[p.name];
    const g = svg("g", { "data-point": p.name }, board);
    const title = svg("title", {}, g);
    title.textContent = p.name + (cows[p.name] ? (cows[p.name] === "W" ? " white" : " black") : "");
    svg("circle", { class: "point", cx: x, cy: y, r: 7 }, g);
    if (cows[p.name])
      svg("circle", {
        class: `cow ${cows[p.name]}${state.clicked.includes(p.name) ? " selected" : ""}`,
        cx: x, cy: y, r: 19,
      }, g);
    if (next.has(p.name) && state.clicked.length > 0)
      svg("circle", { class: "target", cx: x, cy: y, r: 12 }, g);
    g.addEventListener("click", () => clickPoint(p.name));
  }
}

// A board click: the points of a move one by one (from, to, shot); a move is played as soon as
// the points clicked are all of it.
function clickPoint(name) {
  const moves = state.answer ? state.answer.moves || [] : [];
  const clicked = [...state.clicked, name];
  const fits = moves.filter((m) => clicked.every((p, i) => movePoints(m.move)[i] === p));
  const whole = fits.find((m) => movePoints(m.move).length === clicked.length);
  if (whole) return show(whole.position, true);
  state.clicked = fits.length ? clicked : [];
  $("status").textContent = fits.length ? `selected ${clicked.join(" ")}` : `no move starts ${clicked.join(" ")}`;
  drawBoard();
}

const distanceText = (r) => (r.distance === null ? "–" : String(r.distance));
const ruleText = (r) =>
  r.rule_value === undefined ? "" :
  r.rule_value + (r.plies_to_mill === null ? "" : ` (${r.plies_to_mill} to mill)`);

function describe(r) {
  const side = state.position.split(" ")[1] === "w" ? "White" : "Black";
  let s = `${side} to move: ${r.value}`;
  if (r.distance !== null) s += ` in ${r.distance} ${r.distance === 1 ? "ply" : "plies"}`;
  if (r.rule_value !== undefined) s += `; under the ply limit ${ruleText(r)}`;
  return s;
}

function drawMoves() {
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  for (const m of state.answer ? state.answer.moves : []) {
    const row = body.insertRow();
    row.className = m.value;
    row.dataset.position = m.position;
    for (const text of [m.move, m.value, distanceText(m), ruleText(m)])
      row.insertCell().textContent = text;
    row.addEventListener("click", () => show(m.position, true));
    // Playable from the keyboard too: Tab to the row, Enter.
    row.tabIndex = 0;
    row.addEventListener("keydown", (e) => {
      if (e.key === "Enter") show(m.position, true);
    });
  }
}

async function drawLine() {
  const list = $("line");
  list.replaceChildren();
  if (!state.answer) return;
  const answer = await getJson(`/api/v1/line?${query(state.position)}`);
  if (answer.position !== state.position) return;  // a newer position is shown by now
  for (const move of answer.line) list.appendChild(document.createElement("li")).textContent = move;
}

// Shows `position`: asks the server, redraws, and keeps it in the URL (a new history entry
// when `push`, so that the browser's back and forward buttons step through the game).
async function show(position, push) {
  state.position = position;
  state.clicked = [];
  $("position-input").value = position;
  $("error").textContent = "";
  $("status").textContent = "";
  const url = `/?${new URLSearchParams(state.rules ? { position, rules: state.rules } : { position })}`;
  if (push) history.pushState({ position, rules: state.rules }, "", url);
  else history.replaceState({ position, rules: state.rules }, "", url);
  state.answer = null;
  if (!position) $("status").textContent = "Type or paste a position string above.";
  if (position) {
    try {
      state.answer = await getJson(`/api/v1/probe?${query(position)}`);
    } catch (e) {
      $("error").textContent = e.message;
    }
  }
  $("value").textContent = state.answer
    ? describe(state.answer) + (state.answer.moves.length ? "" : " (the game is over)") : "";
  drawBoard();
  drawMoves();
  await drawLine();
  document.body.dataset.shown = position;  // for tests: the page has finished drawing it
}

async function start() {
  const info = await getJson("/api/v1/info");
  state.databases = info.databases;
  const params = new URLSearchParams(location.search);
  state.rules = params.get("rules") || state.databases[0].rules;
  for (const d of state.databases) {
    const option = $("rules").appendChild(document.createElement("option"));
    option.value = option.textContent = d.rules;
  }
  $("rules").value = state.rules;
  $("rules").addEventListener("change", () => {
    state.rules = $("rules").value;
    show(startPosition(database()), true);
  });
  $("goto").addEventListener("submit", (e) => {
    e.preventDefault();
    show($("position-input").value.trim(), true);
  });
  $("back").addEventListener("click", () => history.back());
  $("forward").addEventListener("click", () => history.forward());
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") history.back();
    if (e.key === "ArrowRight") history.forward();
  });
  window.addEventListener("popstate", (e) => {
    if (e.state) {
      state.rules = e.state.rules || state.rules;
      $("rules").value = state.rules;
      show(e.state.position, false);
    }
  });
  await show(params.get("position") || startPosition(database()), false);
}

start().catch((e) => { $("error").textContent = e.message; });
