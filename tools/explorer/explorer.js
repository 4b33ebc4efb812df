// The explorer: draws a position of the server's databases, lists its moves grouped by outcome
// and best first, follows the best line, sets up positions and plays against the database.
"use strict";

const GRID = 60, MARGIN = 60;  // board coordinates 0..6 to SVG pixels
const NEXT_COW = { "": "W", W: "B", B: "" };  // what an editor click puts on a point

const state = {
  databases: [],   // /api/v1/info
  rules: "",       // the database shown
  position: "",    // the position string shown
  answer: null,    // /api/v1/probe's answer for it
  clicked: [],     // points clicked so far toward a move on the board
  pure: false,     // best play by pure distance instead of under the rules
  lastMove: "",    // the move that led to the position, when the page played it
  editing: false,  // board clicks set up the position instead of playing
  play: null,      // a game against the database: { human: "w" | "b", plies: [move answers] }
};

const database = () => state.databases.find((d) => d.rules === state.rules) || state.databases[0];
const geometry = () => database().board;
const colourName = (side) => (side === "w" ? "White" : "Black");

function query(position, extra = {}) {
  const q = new URLSearchParams({ position, ...extra });
  if (state.rules) q.set("rules", state.rules);
  if (state.pure) q.set("pure", "1");
  return q.toString();
}

// The fields of a position string (docs/RULES.md), however incomplete: the board is drawn from it
// before the server has judged it.
function fieldsOf(position) {
  const f = position.trim().split(/\s+/);
  return { board: f[0] || "", side: f[1] || "w", hands: [f[2] || "0", f[3] || "0"],
           count: f[4] || "0", bars: f.slice(5) };
}

const stringOf = (p) =>
  [p.board, p.side, p.hands[0], p.hands[1], p.count, ...p.bars].join(" ");

// Cows by point name from the board field (points in string order, parts split by '/').
function cowsOf(position) {
  const squares = fieldsOf(position).board.replaceAll("/", "");
  const cows = {};
  geometry().points.forEach((p, i) => {
    if (squares[i] === "W" || squares[i] === "B") cows[p.name] = squares[i];
  });
  return cows;
}

// The board field of `cows`: the rings of eight points, then the Koti board's centre.
function boardFieldOf(cows) {
  const squares = geometry().points.map((p) => cows[p.name] || ".");
  const parts = [];
  for (let i = 0; i < squares.length; i += 8) parts.push(squares.slice(i, i + 8).join(""));
  return parts.join("/");
}

// The start of the database's herd; a database of the moving phase only has none, so the
// editor opens on an empty board there.
const startPosition = (db) =>
  `${boardFieldOf({})} w ${db.herd} ${db.herd} 0`;

// Barred lines (mssa-1) and barred moves (house-003) of the bar fields, by colour.
function barsOf(position) {
  const bars = [];
  for (const field of fieldsOf(position).bars) {
    const [, side, what] = field.split(":");
    for (const part of (what || "").split(",")) bars.push({ side, points: part.split("-") });
  }
  return bars;
}

const movePoints = (move) => move.split(/[-x]/).filter((p) => p);
// The points a move shoots: those after its 'x' ("x-": a declined shot, none).
const shotPoints = (move) => move.split("x").slice(1).filter((p) => p !== "-");

function drawBoard() {
  const board = $("board"), geo = geometry();
  board.replaceChildren();
  const at = {};
  for (const p of geo.points) at[p.name] = [MARGIN + GRID * p.x, MARGIN + GRID * p.y];
  for (const line of geo.lines)
    svg("polyline", { class: "line", points: line.map((n) => at[n].join(",")).join(" ") }, board);
  const files = [...new Set(geo.points.map((p) => p.name[0]))].sort();
  for (const f of files) {
    const x = MARGIN + GRID * (f.charCodeAt(0) - 97);
    svg("text", { class: "label", x, y: MARGIN + 6 * GRID + 40 }, board).textContent = f;
  }
  for (let r = 1; r <= 7; ++r)
    svg("text", { class: "label", x: 20, y: MARGIN + GRID * (7 - r) }, board).textContent = r;
  // Barred lines dashed; a barred move (from, to) with an arrowhead at `to`.
  const head = svg("marker", { id: "bar-head", viewBox: "0 0 10 10", refX: 10, refY: 5,
                               markerWidth: 4, markerHeight: 4, orient: "auto" },
                   svg("defs", {}, board));
  svg("path", { d: "M0,0 L10,5 L0,10 z", class: "bar-head" }, head);
  for (const bar of barsOf(state.position)) {
    if (!bar.points.every((p) => at[p])) continue;
    const line = svg("polyline", { class: `bar ${bar.side}`, "data-bar": bar.points.join("-"),
                                   points: bar.points.map((n) => at[n].join(",")).join(" ") }, board);
    if (bar.points.length === 2) line.setAttribute("marker-end", "url(#bar-head)");
  }

  const cows = state.position ? cowsOf(state.position) : {};
  const moves = state.answer && !state.editing ? state.answer.moves || [] : [];
  const next = new Set(  // points that continue a move from those clicked
    moves.map((m) => movePoints(m.move))
      .filter((pts) => state.clicked.every((p, i) => pts[i] === p) && pts.length > state.clicked.length)
      .map((pts) => pts[state.clicked.length]));
  const shot = shotPoints(state.lastMove);
  const last = movePoints(state.lastMove).filter((p) => !shot.includes(p));
  board.dataset.position = state.position;
  board.dataset.lastMove = state.lastMove;
  for (const p of geo.points) {
    const [x, y] = at[p.name];
    const g = svg("g", { "data-point": p.name }, board);
    const title = svg("title", {}, g);
    title.textContent = p.name + (cows[p.name] ? (cows[p.name] === "W" ? " white" : " black") : "");
    if (last.includes(p.name)) svg("circle", { class: "last", cx: x, cy: y, r: 25 }, g);
    if (shot.includes(p.name)) svg("circle", { class: "shot", cx: x, cy: y, r: 16 }, g);
    svg("circle", { class: "point", cx: x, cy: y, r: 7 }, g);
    if (cows[p.name])
      svg("circle", {
        class: `cow ${cows[p.name]}${state.clicked.includes(p.name) ? " selected" : ""}`,
        cx: x, cy: y, r: 19,
      }, g);
    if (next.has(p.name) && state.clicked.length > 0)
      svg("circle", { class: "target", cx: x, cy: y, r: 12 }, g);
    // A transparent disc over the point, so that a click near it counts.
    svg("circle", { class: "hit", cx: x, cy: y, r: 26 }, g);
    g.addEventListener("click", () => (state.editing ? editPoint(p.name) : clickPoint(p.name)));
  }
}

// Cows in hand and on the board, the count and the bars, beside the board.
function drawSides() {
  const f = fieldsOf(state.position), cows = Object.values(cowsOf(state.position));
  const box = $("sides");
  box.replaceChildren();
  ["w", "b"].forEach((side, i) => {
    const row = element("p", undefined, box, `side ${side}${f.side === side ? " to-move" : ""}`);
    element("span", "", row, `swatch ${side.toUpperCase()}`);
    element("span", `${colourName(side)}: ${cows.filter((c) => c === side.toUpperCase()).length}` +
                    ` on the board, ${f.hands[i]} in hand${f.side === side ? " (to move)" : ""}`, row);
  });
  const limit = database().ply_limit;
  element("p", `Count: ${f.count} ${f.count === "1" ? "ply" : "plies"} since the last mill` +
               (limit ? ` (the ply limit: ${limit})` : ""), box, "count");
  for (const bar of barsOf(state.position))
    element("p", bar.points.length === 2
      ? `${colourName(bar.side)} may not move ${bar.points.join("-")} this turn (bar)`
      : `${colourName(bar.side)} may not form the mill ${bar.points.join("-")} this turn (bar)`,
      box, "bar-text");
}

// A board click while playing: the points of a move one by one (from, to, shot); a move is
// played as soon as the points clicked are all of it.
function clickPoint(name) {
  const moves = state.answer && !gameOver(state.answer) ? state.answer.moves || [] : [];
  if (state.play && fieldsOf(state.position).side !== state.play.human) return;
  const clicked = [...state.clicked, name];
  const fits = moves.filter((m) => clicked.every((p, i) => movePoints(m.move)[i] === p));
  const whole = fits.find((m) => movePoints(m.move).length === clicked.length);
  if (whole) return playMove(whole);
  state.clicked = fits.length ? clicked : [];
  $("status").textContent = fits.length ? `selected ${clicked.join(" ")}` : `no move starts ${clicked.join(" ")}`;
  drawBoard();
}

// Plays the move `m` of the answer shown (as listed by /api/v1/probe).
function playMove(m) {
  if (state.play) state.play.plies.push({ ...m, from: state.position });
  state.lastMove = m.move;
  return show(m.position, true);
}

// Outcome words for a result from its side to move's view.
function pureText(r) {
  return r.value === "draw" ? "draw" : `${r.value} ${r.distance}`;
}

const RULE_WORDS = { win: "win", "cursed-win": "cursed win", draw: "draw",
                     "blessed-loss": "blessed loss", loss: "loss" };

function ruleText(r) {
  if (r.rule_value === undefined) return "";
  return RULE_WORDS[r.rule_value] + (r.plies_to_mill === null ? "" : `, ${r.plies_to_mill} to mill`);
}

// The group a move's result falls in under the metric shown.
function groupOf(r) {
  if (state.pure || r.rule_value === undefined) return r.value;
  return r.rule_value === "win" ? "win" : r.rule_value === "loss" ? "loss" : "draw";
}

const EXPLAIN = {
  "cursed-win": "A cursed win: the pure game is won, but not before the ply limit, so under the " +
                "rules it is a draw.",
  "blessed-loss": "A blessed loss: the pure game is lost, but the ply limit comes first, so under " +
                  "the rules it is a draw.",
};

// Whether the game has ended at `answer`'s position: no moves, or under the rules the ply limit.
// A value proved by search lists no moves: there, why the game has ended says it.
const gameOver = (answer) =>
  (answer.moves ? answer.moves.length === 0 : Boolean(answer.game_over)) ||
  Boolean(answer.game_over && !state.pure);

// Whether the server proved the value by searching forward to its tables (a placing position
// of a folder that lacks its table): a value without distances, moves or a line.
const bySearch = (answer) => answer.proved_by === "search";

function describe(r) {
  const side = colourName(fieldsOf(state.position).side);
  let s = `${side} to move: ${r.value}`;
  if (r.distance !== null) s += ` in ${r.distance} ${r.distance === 1 ? "ply" : "plies"}`;
  if (r.rule_value !== undefined) s += `; under the ply limit ${ruleText(r)}`;
  if (bySearch(r))
    s += ` (proved by search, ${r.search_nodes} ${r.search_nodes === 1 ? "node" : "nodes"})`;
  return s;
}

function drawValue() {
  const a = state.answer;
  $("value").textContent = a ? describe(a) + (gameOver(a) ? " (the game is over)" : "") : "";
  const explained = new Set();
  if (a)
    for (const r of [a, ...(a.moves || [])]) if (EXPLAIN[r.rule_value]) explained.add(r.rule_value);
  const why = [...explained].map((k) => EXPLAIN[k]);
  if (a && bySearch(a))
    why.push("No table of this database holds the position: the server proved its value by " +
             "searching forward to the positions its tables hold, which gives no distances, " +
             "moves or line.");
  if (a && a.best_move !== a.best_move_pure)
    why.push(`The best move under the rules is ${a.best_move}; by pure distance, ${a.best_move_pure}.`);
  $("why").textContent = why.join(" ");
  $("metric").hidden = !a || a.rule_value === undefined;
}

function drawMoves() {
  const table = $("moves");
  for (const body of [...table.tBodies]) body.remove();
  table.hidden = !state.answer || !state.answer.moves || gameOver(state.answer);
  if (table.hidden) return;
  const groups = { win: [], draw: [], loss: [] };
  for (const m of state.answer.moves) groups[groupOf(m)].push(m);
  const titles = { win: "Winning", draw: "Drawing", loss: "Losing" };
  for (const [group, moves] of Object.entries(groups)) {
    if (!moves.length) continue;
    const body = table.createTBody();
    body.className = group;
    const heading = element("th", `${titles[group]} (${moves.length})`, body.insertRow());
    heading.colSpan = 4;
    for (const m of moves) {
      const row = body.insertRow();
      row.className = m.rule_value || m.value;
      row.dataset.move = m.move;
      row.dataset.position = m.position;
      for (const text of [m.move, pureText(m), ruleText(m), m.flags.join(" ")])
        row.insertCell().textContent = text;
      if (EXPLAIN[m.rule_value]) row.title = EXPLAIN[m.rule_value];
      const play = () => {
        if (!state.play || fieldsOf(state.position).side === state.play.human) playMove(m);
      };
      row.addEventListener("click", play);
      // Playable from the keyboard too: Tab to the row, Enter.
      row.tabIndex = 0;
      row.addEventListener("keydown", (e) => {
        if (e.key === "Enter") play();
      });
    }
  }
}

// A result after a ply in words, White's or Black's win (`side`: the side to move after it).
function afterText(r, side) {
  if (r.value === "draw") return "draw";
  const winner = r.value === "win" ? side : side === "w" ? "b" : "w";
  let s = r.distance ? `${colourName(winner)} wins in ${r.distance}` : `${colourName(winner)} has won`;
  if (EXPLAIN[r.rule_value]) s += " (a draw under the rules)";
  return s;
}

async function drawLine() {
  const list = $("line");
  list.replaceChildren();
  if (!state.answer) return;
  if (bySearch(state.answer)) {  // a mainline would search again, and find no line either
    element("li", "(none: the value was proved by search)", list, "none");
    return;
  }
  const answer = await getJson(`/api/v1/mainline?${query(state.position)}`);
  if (answer.position !== state.position) return;  // a newer position is shown by now
  for (const ply of answer.mainline) {
    const li = element("li", undefined, list);
    li.dataset.move = ply.move;
    const link = element("a", ply.move, li, "move");
    link.href = explorerUrl(ply.position, state.rules);
    element("span", ` ${afterText(ply, fieldsOf(ply.position).side)}` +
                    (ply.game_over ? `; ${ply.game_over}` : ""), li);
  }
  if (!answer.mainline.length) element("li", "(none: the game is over)", list, "none");
}

function drawGame() {
  const list = $("game");
  list.replaceChildren();
  $("takeback").disabled = !state.play || !state.play.plies.length;
  $("play-stop").disabled = !state.play;
  $("result").textContent = "";
  if (!state.play) return;
  for (const m of state.play.plies) {
    const by = fieldsOf(m.from).side === state.play.human ? "you" : "database";
    const li = element("li", `${m.move} `, list, by);
    li.dataset.move = m.move;
    element("span", [pureText(m), ruleText(m)].filter((t) => t).join("; "), li, m.value);
    li.title = by === "you" ? "your move" : "the database's reply";
  }
  const a = state.answer;
  if (a && gameOver(a)) {
    const side = fieldsOf(state.position).side;
    const who = a.value === "draw" ? "" : a.value === "loss" && side === state.play.human ? " I win." : " You win.";
    $("result").textContent = `Game over: ${a.game_over}.${who}`;
  }
}

// The editor's fields from the position shown (but the one being typed in), and its Sanmill
// FEN.
async function fillEditor() {
  const f = fieldsOf(state.position);
  const fill = (id, value) => {
    if (document.activeElement !== $(id)) $(id).value = value;
  };
  fill("edit-side", f.side);
  fill("edit-white-hand", f.hands[0]);
  fill("edit-black-hand", f.hands[1]);
  fill("edit-count", f.count);
  fill("edit-bars", f.bars.join(" "));
  $("edit-bars-label").hidden = !/mssa-1|house-003/.test(state.rules) && !f.bars.length;
  $("sanmill").value = "";
  $("sanmill").placeholder = "";
  try {
    const both = await getJson(`/api/v1/position?${new URLSearchParams({ position: state.position, rules: state.rules })}`);
    if (both.position === state.position || stringOf(fieldsOf(both.position)) === state.position)
      if (both.sanmill) $("sanmill").value = both.sanmill;
      else $("sanmill").placeholder = "(Sanmill has no such board)";
  } catch (e) {
    // The error is shown once, by the probe.
  }
}

// The position the editor's fields and `cows` make.
function edited(cows) {
  return stringOf({
    board: boardFieldOf(cows), side: $("edit-side").value,
    hands: [$("edit-white-hand").value || "0", $("edit-black-hand").value || "0"],
    count: $("edit-count").value || "0",
    bars: $("edit-bars").value.trim() ? $("edit-bars").value.trim().split(/\s+/) : [],
  });
}

function editPoint(name) {
  const cows = cowsOf(state.position);
  cows[name] = NEXT_COW[cows[name] || ""];
  if (!cows[name]) delete cows[name];
  state.lastMove = "";
  show(edited(cows), false);
}

function setEditing(on) {
  state.editing = on;
  $("editor").hidden = !on;
  $("edit").setAttribute("aria-pressed", String(on));
  document.body.classList.toggle("editing", on);
  if (on) stopPlay();
  drawBoard();
  drawMoves();
  if (on) fillEditor();
}

function startPlay(human) {
  setEditing(false);
  state.play = { human, plies: [] };
  show(state.position, false);
}

function stopPlay() {
  state.play = null;
  drawGame();
}

// Takes back the player's last move and the database's reply to it.
function takeback() {
  const plies = state.play.plies;
  let before = "";
  while (plies.length) {
    const m = plies.pop();
    before = m.from;  // the position the move was played from
    if (fieldsOf(m.from).side === state.play.human) break;
  }
  state.lastMove = plies.length ? plies[plies.length - 1].move : "";
  show(before, true);
}

// The database's reply when it is its turn in a game against it: its best move by the metric.
function reply() {
  const a = state.answer;
  if (!state.play || !a || gameOver(a) || fieldsOf(state.position).side === state.play.human) return;
  if (!a.moves) {
    $("status").textContent = "The database cannot play from here: the value was proved by search.";
    return;
  }
  const shown = state.position;
  setTimeout(() => {
    if (state.position === shown && state.play) playMove(a.moves[0]);
  }, 300);
}

// Shows `position`: asks the server, redraws, and keeps it in the URL (a new history entry
// when `push`, so that the browser's back and forward buttons step through the game).
async function show(position, push) {
  state.position = position;
  state.clicked = [];
  $("position-input").value = position;
  $("error").textContent = "";
  $("status").textContent = "";
  const params = { position };
  if (state.rules) params.rules = state.rules;
  if (state.pure) params.pure = "1";
  const url = `/?${new URLSearchParams(params)}`;
  const entry = { position, rules: state.rules, lastMove: state.lastMove };
  if (push) history.pushState(entry, "", url);
  else history.replaceState(entry, "", url);
  state.answer = null;
  drawBoard();  // from the string, before the server answers
  drawSides();
  if (!position) $("status").textContent = "Type or paste a position string above.";
  if (position) {
    try {
      const answer = await getJson(`/api/v1/probe?${query(position)}`);
      if (state.position !== position) return;  // a newer position is shown by now
      state.answer = answer;
    } catch (e) {
      if (state.position !== position) return;
      $("error").textContent = e.message;
    }
  }
  drawValue();
  drawBoard();
  drawMoves();
  drawGame();
  if (state.editing) fillEditor();
  try {
    await drawLine();
  } catch (e) {
    $("error").textContent = e.message;
  }
  if (state.position !== position) return;
  document.body.dataset.shown = position;  // for tests: the page has finished drawing it
  reply();
}

// The databases served: inlined in the page by the server, so that the first paint needs no
// request (fetched where the page comes from elsewhere).
async function servedInfo() {
  try {
    return JSON.parse($("info").textContent);
  } catch (e) {
    return getJson("/api/v1/info");
  }
}

function listen() {
  $("rules").addEventListener("change", () => {
    state.rules = $("rules").value;
    state.lastMove = "";
    stopPlay();
    show(startPosition(database()), true);
  });
  $("goto").addEventListener("submit", (e) => {
    e.preventDefault();
    state.lastMove = "";
    show($("position-input").value.trim(), true);
  });
  $("back").addEventListener("click", () => history.back());
  $("forward").addEventListener("click", () => history.forward());
  $("edit").addEventListener("click", () => setEditing(!state.editing));
  $("edit-done").addEventListener("click", () => setEditing(false));
  for (const id of ["edit-side", "edit-white-hand", "edit-black-hand", "edit-count", "edit-bars"])
    $(id).addEventListener("change", () => show(edited(cowsOf(state.position)), false));
  $("edit-start").addEventListener("click", () => show(startPosition(database()), false));
  $("edit-clear").addEventListener("click", () => {
    $("edit-bars").value = "";
    show(edited({}), false);
  });
  $("edit-swap").addEventListener("click", () => {
    const f = fieldsOf(state.position), cows = cowsOf(state.position);
    for (const p in cows) cows[p] = cows[p] === "W" ? "B" : "W";
    show(stringOf({ board: boardFieldOf(cows), side: f.side === "w" ? "b" : "w",
                    hands: [f.hands[1], f.hands[0]], count: f.count,
                    bars: f.bars.map((b) => b.replace(/^bar:([wb])/, (_, s) => `bar:${s === "w" ? "b" : "w"}`)).reverse() }),
         false);
  });
  $("sanmill-import").addEventListener("click", async () => {
    try {
      const both = await getJson(`/api/v1/position?${new URLSearchParams({ sanmill: $("sanmill").value.trim(), rules: state.rules })}`);
      show(both.position, true);
    } catch (e) {
      $("error").textContent = e.message;
    }
  });
  // The clipboard where the browser offers it (pages of https or localhost); elsewhere the
  // text is selected for the user to copy.
  const copy = (field) => {
    const selected = () => {
      field.select();
      $("status").textContent = "selected: press Ctrl+C to copy";
    };
    if (!navigator.clipboard) return selected();
    navigator.clipboard.writeText(field.value)
      .then(() => { $("status").textContent = `copied ${field.value}`; }, selected);
  };
  $("sanmill-copy").addEventListener("click", () => copy($("sanmill")));
  $("position-copy").addEventListener("click", () => copy($("position-input")));
  for (const radio of document.querySelectorAll('input[name="metric"]'))
    radio.addEventListener("change", () => {
      state.pure = radio.value === "pure" && radio.checked;
      show(state.position, false);
    });
  $("play-white").addEventListener("click", () => startPlay("w"));
  $("play-black").addEventListener("click", () => startPlay("b"));
  $("play-stop").addEventListener("click", stopPlay);
  $("takeback").addEventListener("click", takeback);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowLeft") history.back();
    if (e.key === "ArrowRight") history.forward();
  });
  window.addEventListener("popstate", (e) => {
    if (!e.state) return;
    stopPlay();  // stepping through the history leaves the game against the database
    state.rules = e.state.rules || state.rules;
    state.lastMove = e.state.lastMove || "";
    $("rules").value = state.rules;
    show(e.state.position, false);
  });
}

async function start() {
  state.databases = (await servedInfo()).databases;
  const params = new URLSearchParams(location.search);
  state.rules = params.get("rules") || state.databases[0].rules;
  state.pure = params.get("pure") === "1";
  document.querySelector(`input[name="metric"][value="${state.pure ? "pure" : "rule"}"]`).checked = true;
  for (const d of state.databases) {
    const option = $("rules").appendChild(document.createElement("option"));
    option.value = option.textContent = d.rules;
  }
  $("rules").value = state.rules;
  listen();
  const position = params.get("position") || startPosition(database());
  const movingOnly = !params.get("position") && database().herd === 0;
  if (movingOnly) setEditing(true);
  await show(position, false);
  if (movingOnly)
    $("status").textContent = "This database holds the moving phase only: set up a position.";
}

start().catch((e) => { $("error").textContent = e.message; });
