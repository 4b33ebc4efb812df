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
  preview: "",     // the move whose row the pointer or the focus is on, marked on the board
  flipped: false,  // the board turned half round: Black's side at the bottom
  depth: 0,        // the history entry shown, counted from the page's first
  lastDepth: 0,    // the last history entry there is to go forward to
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
  // Grid coordinates turned half round when the board is flipped.
  const turn = (v) => (state.flipped ? 6 - v : v);
  const at = {};
  for (const p of geo.points) at[p.name] = [MARGIN + GRID * turn(p.x), MARGIN + GRID * turn(p.y)];
  for (const line of geo.lines)
    svg("polyline", { class: "line", points: line.map((n) => at[n].join(",")).join(" ") }, board);
  const files = [...new Set(geo.points.map((p) => p.name[0]))].sort();
  for (const f of files) {
    const x = MARGIN + GRID * turn(f.charCodeAt(0) - 97);
    svg("text", { class: "label", x, y: MARGIN + 6 * GRID + 40 }, board).textContent = f;
  }
  for (let r = 1; r <= 7; ++r)
    svg("text", { class: "label", x: 20, y: MARGIN + GRID * turn(7 - r) }, board).textContent = r;
  board.dataset.flipped = String(state.flipped);
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
  drawPreview();
}

// The move whose row the pointer or the focus is on, marked on the board: its points, the shot
// one in red. Only these marks change, so that a click on the board that starts while the
// pointer leaves a row still lands on the point it was pressed on.
function drawPreview() {
  const board = $("board");
  board.dataset.preview = state.preview;
  for (const old of board.querySelectorAll(".preview, .preview-shot")) old.remove();
  const shot = shotPoints(state.preview);
  for (const name of movePoints(state.preview)) {
    const g = board.querySelector(`g[data-point="${name}"]`);
    if (!g) continue;
    const point = g.querySelector(".point");
    const mark = svg("circle", { class: shot.includes(name) ? "preview-shot" : "preview",
                                 cx: point.getAttribute("cx"), cy: point.getAttribute("cy"),
                                 r: shot.includes(name) ? 22 : 24 }, g);
    g.insertBefore(mark, point);
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

// The group a move's result falls in under the metric shown: by the pure value, or under the
// rules by the value at the count (a cursed win and a blessed loss apart from the draws, as
// syzygy-tables.info groups chess moves).
const groupOf = (r) => (state.pure || r.rule_value === undefined ? r.value : r.rule_value);

const GROUP_TITLES = {
  win: "Winning", "cursed-win": "Cursed wins (drawn by the ply limit)", draw: "Drawing",
  "blessed-loss": "Blessed losses (drawn by the ply limit)", loss: "Losing",
};

// Moves of equal values next to each other beyond this many are folded under one row.
const FOLD_AFTER = 3;

const EXPLAIN = {
  "cursed-win": "A cursed win: the pure game is won, but not before the ply limit, so under the " +
                "rules it is a draw.",
  "blessed-loss": "A blessed loss: the pure game is lost, but the ply limit comes first, so under " +
                  "the rules it is a draw.",
};

// Whether the game has ended at `answer`'s position under the rules, whatever the metric: the
// metric orders the moves, the rules (the ply limit too) end the game.
const gameOver = (answer) => Boolean(answer.game_over);

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

// The subspace of a position string, from its side to move's view: "4v3", or "2v3+1+0" while
// placing (docs/RULES.md).
function subspaceOf(position) {
  const f = fieldsOf(position), cows = Object.values(cowsOf(position));
  const own = f.side.toUpperCase(), other = own === "W" ? "B" : "W";
  const hands = f.side === "w" ? f.hands : [f.hands[1], f.hands[0]];
  const name = `${cows.filter((c) => c === own).length}v${cows.filter((c) => c === other).length}`;
  return hands[0] === "0" && hands[1] === "0" ? name : `${name}+${hands[0]}+${hands[1]}`;
}

// A link to the statistics of the position's subspace, its value's buckets marked there.
function drawSubspaceLink(a) {
  const box = $("subspace-link");
  box.replaceChildren();
  if (!a || bySearch(a) || gameOver(a)) return;
  const subspace = subspaceOf(state.position);
  if (!database().subspaces.some((s) => s.name === subspace)) return;
  const q = new URLSearchParams({ rules: state.rules || database().rules, subspace, value: a.value });
  if (a.distance !== null) q.set("distance", a.distance);
  if (a.plies_to_mill !== undefined && a.plies_to_mill !== null) q.set("mill", a.plies_to_mill);
  const link = element("a", `Statistics of ${subspace}`, box);
  link.href = `/stats.html?${q}`;
  element("span", ", where this position's value falls marked", box);
}

function drawValue() {
  const a = state.answer;
  drawSubspaceLink(a);
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
  const groups = Object.fromEntries(Object.keys(GROUP_TITLES).map((g) => [g, []]));
  for (const m of state.answer.moves) groups[groupOf(m)].push(m);
  for (const [group, moves] of Object.entries(groups)) {
    if (!moves.length) continue;
    const body = table.createTBody();
    body.className = group;
    const heading = element("th", `${GROUP_TITLES[group]} (${moves.length})`, body.insertRow());
    heading.colSpan = 4;
    // Runs of moves of equal values: the first FOLD_AFTER shown, the rest behind a row that
    // unfolds them (each still a row, so that tests and the keyboard find every move).
    let run = [];  // { move, row } of equal values
    const valuesOf = (m) => `${pureText(m)}|${ruleText(m)}`;
    const fold = () => {
      if (run.length > FOLD_AFTER + 1) {
        const folded = run.slice(FOLD_AFTER).map((r) => r.row);
        const toggle = body.insertRow(folded[0].sectionRowIndex);
        toggle.className = "fold";
        const cell = toggle.insertCell();
        cell.colSpan = 4;
        const button = element("button", `${folded.length} more moves of the same value`, cell);
        button.type = "button";
        button.addEventListener("click", () => {
          for (const row of folded) row.hidden = false;
          toggle.remove();
        });
        for (const row of folded) row.hidden = true;
      }
      run = [];
    };
    for (const m of moves) {
      if (run.length && valuesOf(run[0].move) !== valuesOf(m)) fold();
      run.push({ move: m, row: moveRow(body, m) });
    }
    fold();
  }
}

// A move's row: the move a link to the position it leads to, its values and flags; a click or
// Enter plays it, the pointer or the focus on it marks it on the board.
function moveRow(body, m) {
  const row = body.insertRow();
  row.className = m.rule_value || m.value;
  row.dataset.move = m.move;
  row.dataset.position = m.position;
  const link = element("a", m.move, row.insertCell(), "move");
  link.href = explorerUrl(m.position, state.rules);
  link.tabIndex = -1;  // the row takes the focus
  for (const text of [pureText(m), ruleText(m), m.flags.join(" ")])
    row.insertCell().textContent = text;
  if (EXPLAIN[m.rule_value]) row.title = EXPLAIN[m.rule_value];
  const play = (e) => {
    if (e) e.preventDefault();  // the link's own page would start afresh, leaving a game
    if (!state.play || fieldsOf(state.position).side === state.play.human) playMove(m);
  };
  row.addEventListener("click", play);
  row.tabIndex = 0;
  row.addEventListener("keydown", (e) => {
    if (e.key === "Enter") play(e);
  });
  const preview = (move) => () => {
    state.preview = move;
    drawPreview();
  };
  row.addEventListener("mouseenter", preview(m.move));
  row.addEventListener("focus", preview(m.move));
  row.addEventListener("mouseleave", preview(""));
  row.addEventListener("blur", preview(""));
  return row;
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
  $("takeback").disabled = $("game-copy").disabled = !state.play || !state.play.plies.length;
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
  $("edit-bars-label").hidden = !database().needs_history && !f.bars.length;
  $("sanmill").value = "";
  $("sanmill").placeholder = "";
  $("sanmill-label").textContent = "Sanmill FEN";
  try {
    const both = await getJson(`/api/v1/position?${new URLSearchParams({ position: state.position, rules: state.rules })}`);
    if (both.position === state.position || stringOf(fieldsOf(both.position)) === state.position)
      if (both.sanmill) {
        $("sanmill").value = both.sanmill;
        $("sanmill-label").textContent = `Sanmill FEN (move number of a herd of ${both.herd})`;
      } else $("sanmill").placeholder = "(Sanmill has no such board)";
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

// A click of the editor on a point: empty, then a White cow, then a Black cow. While cows are in
// hand a cow put on the board comes from its hand and one taken off goes back to it, and the
// side to move follows the turn order of placing (White to move with as many in hand as Black,
// Black with one more), so that a herd's start stays a position of that herd.
function editPoint(name) {
  const cows = cowsOf(state.position);
  const before = cows[name] || "", after = NEXT_COW[before];
  const hands = [Number($("edit-white-hand").value) || 0, Number($("edit-black-hand").value) || 0];
  if (hands[0] + hands[1] > 0) {
    if (before) hands[before === "W" ? 0 : 1] += 1;
    if (after) hands[after === "W" ? 0 : 1] -= 1;
    if (hands.some((h) => h < 0)) {
      $("status").textContent = `${after === "W" ? "White" : "Black"} has no cow left in hand`;
      return;
    }
    $("edit-white-hand").value = hands[0];
    $("edit-black-hand").value = hands[1];
    if (hands[0] === hands[1]) $("edit-side").value = "w";
    else if (hands[1] === hands[0] + 1) $("edit-side").value = "b";
  }
  if (after) cows[name] = after;
  else delete cows[name];
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
  if (push) state.lastDepth = ++state.depth;  // a new entry ends the history after it
  const entry = { position, rules: state.rules, lastMove: state.lastMove, depth: state.depth };
  if (push) history.pushState(entry, "", url);
  else history.replaceState(entry, "", url);
  state.preview = "";
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
  // No game from a position the server refuses: the error says why.
  $("play-white").disabled = $("play-black").disabled = !state.answer;
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

// The best move of the position shown, where the game goes on and it is not the database's
// turn in a game against it.
function playBest() {
  const a = state.answer;
  if (!a || gameOver(a) || !a.moves || !a.moves.length) return;
  if (state.play && fieldsOf(state.position).side !== state.play.human) return;
  playMove(a.moves[0]);
}

function flip() {
  state.flipped = !state.flipped;
  $("flip").setAttribute("aria-pressed", String(state.flipped));
  drawBoard();
}

// The keys of the page: each with its words in the list that `?` shows.
const KEYS = {
  " ": { keys: "Space", what: "play the best move", run: playBest },
  ArrowLeft: { keys: "\u2190", what: "back one position", run: () => state.depth > 0 && history.back() },
  ArrowRight: {
    keys: "\u2192",
    what: "forward one position, or the best move at the end of the history",
    run: () => (state.depth < state.lastDepth ? history.forward() : playBest()),
  },
  Home: { keys: "Home", what: "back to the first position", run: () => state.depth > 0 && history.go(-state.depth) },
  End: {
    keys: "End",
    what: "forward to the last position",
    run: () => state.lastDepth > state.depth && history.go(state.lastDepth - state.depth),
  },
  f: { keys: "f", what: "flip the board", run: flip },
  "?": { keys: "?", what: "show or hide this list", run: () => ($("keys").hidden = !$("keys").hidden) },
};

// The moves of the best line shown.
const lineMoves = () => [...document.querySelectorAll("#line li[data-move]")].map((li) => li.dataset.move);

// A line or a game as text: the start position's string, the moves, and the page's URL that
// plays them (`moves`, which start() replays).
function exported(start, moves) {
  const q = new URLSearchParams({ position: start, moves: moves.join(" ") });
  if (state.rules) q.set("rules", state.rules);
  return `${start}\n${moves.join(" ")}\n${location.origin}/?${q}`;
}

// The clipboard where the browser offers it (pages of https or localhost); elsewhere the text
// is shown in the status line, selected for the user to copy.
function copyText(text) {
  const shown = () => {
    $("export").value = text;
    $("export").hidden = false;
    $("export").select();
    $("status").textContent = "selected: press Ctrl+C to copy";
  };
  $("export").value = text;
  if (!navigator.clipboard) return shown();
  navigator.clipboard.writeText(text).then(() => {
    $("export").hidden = false;
    $("status").textContent = "copied to the clipboard";
  }, shown);
}

function listen() {
  $("rules").addEventListener("change", () => {
    state.rules = $("rules").value;
    state.lastMove = "";
    stopPlay();
    show(database().start, true);
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
  $("edit-start").addEventListener("click", () => show(database().start, false));
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
  $("sanmill-copy").addEventListener("click", () => copyText($("sanmill").value));
  $("position-copy").addEventListener("click", () => copyText($("position-input").value));
  for (const radio of document.querySelectorAll('input[name="metric"]'))
    radio.addEventListener("change", () => {
      state.pure = radio.value === "pure" && radio.checked;
      show(state.position, false);
    });
  $("play-white").addEventListener("click", () => startPlay("w"));
  $("play-black").addEventListener("click", () => startPlay("b"));
  $("play-stop").addEventListener("click", stopPlay);
  $("takeback").addEventListener("click", takeback);
  $("flip").addEventListener("click", flip);
  $("keys-toggle").addEventListener("click", () => ($("keys").hidden = !$("keys").hidden));
  $("line-copy").addEventListener("click", () => copyText(exported(state.position, lineMoves())));
  $("game-copy").addEventListener("click", () => {
    const plies = state.play ? state.play.plies : [];
    if (plies.length) copyText(exported(plies[0].from, plies.map((m) => m.move)));
  });
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || e.ctrlKey || e.metaKey ||
        e.altKey)
      return;
    const action = KEYS[e.key];
    if (!action) return;
    e.preventDefault();
    action.run();
  });
  window.addEventListener("popstate", (e) => {
    if (!e.state) return;
    stopPlay();  // stepping through the history leaves the game against the database
    state.rules = e.state.rules || state.rules;
    state.lastMove = e.state.lastMove || "";
    state.depth = e.state.depth || 0;
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
  drawKeys();
  const moves = (params.get("moves") || "").split(/[\s,]+/).filter((m) => m);
  if (params.get("position") && moves.length) return replay(params.get("position"), moves);
  if (params.get("position") || database().herd > 0)
    return show(params.get("position") || database().start, false);
  // A folder of the moving phase has no start: it opens on the longest win of a subspace.
  const shown = await worthSeeing(database());
  if (!shown.position) {  // a subspace without a win: the editor on an empty board
    setEditing(true);
    return show(database().start, false);  // the empty board, no cows in hand
  }
  await show(shown.position, false);
  $("status").textContent = `This database holds the moving phase only: the longest win of ` +
    `${shown.subspace} is shown; set up any other position with the editor.`;
}

// The longest win of the largest subspace whose table reads in a moment (at most 10^6
// canonical positions; /api/v1/stats reads a table whole), or of the smallest.
async function worthSeeing(db) {
  const bySize = [...db.subspaces].sort((a, b) => a.canonical_positions - b.canonical_positions);
  const quick = bySize.filter((s) => s.canonical_positions <= 1e6);
  const subspace = (quick.length ? quick[quick.length - 1] : bySize[0]).name;
  const stats = await getJson(`/api/v1/stats?${new URLSearchParams({ rules: db.rules, subspace })}`);
  return { subspace, position: stats.subspaces[subspace].longest_win_position };
}

// The page of a URL with `moves` (exported()): the start, then each move played in turn, each
// position an entry of the history, the last one shown.
async function replay(start, moves) {
  let position = start;
  for (const [i, move] of moves.entries()) {
    const answer = await getJson(`/api/v1/probe?${query(position)}`);
    const m = (answer.moves || []).find((x) => x.move === move);
    if (!m) {
      await show(position, i > 0);
      $("error").textContent = `${move} is no legal move here: the moves of the link stop before it`;
      return;
    }
    if (i === 0) history.replaceState({ position, rules: state.rules, depth: 0 }, "", explorerUrl(position, state.rules));
    else {
      state.lastDepth = ++state.depth;
      history.pushState({ position, rules: state.rules, lastMove: moves[i - 1], depth: state.depth },
                        "", explorerUrl(position, state.rules));
    }
    position = m.position;
  }
  state.lastMove = moves[moves.length - 1];
  return show(position, true);
}

// The list of keys that `?` shows.
function drawKeys() {
  const list = $("keys");
  for (const { keys, what } of Object.values(KEYS)) {
    element("dt", keys, list);
    element("dd", what, list);
  }
}

start().catch((e) => { $("error").textContent = e.message; });
