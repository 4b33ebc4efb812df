// The statistics pages: the subspaces of every database served (/api/v1/info), and one
// subspace's values (/api/v1/stats: what `info --json` prints) with its distance histograms.
"use strict";

const number = (n) => Number(n).toLocaleString("en");
const percent = (n, of) => (of ? `${(100 * n / of).toFixed(1)} %` : "–");

function statsUrl(rules, subspace) {
  const q = new URLSearchParams({ rules });
  if (subspace) q.set("subspace", subspace);
  return `/stats.html?${q}`;
}

function table(parent, head, rows) {
  const wide = element("div", undefined, parent, "wide");
  const t = element("table", undefined, wide, "stats");
  const tr = t.createTHead().insertRow();
  for (const h of head) element("th", h, tr);
  const body = t.createTBody();
  for (const row of rows) {
    const r = body.insertRow();
    for (const cell of row) {
      const td = r.insertCell();
      if (cell instanceof Node) td.appendChild(cell);
      else td.textContent = cell;
    }
  }
  return t;
}

function link(text, href) {
  const a = element("a", text);
  a.href = href;
  return a;
}

// Every subspace of every database, each linking to its page.
function overview(info) {
  const box = $("stats");
  for (const db of info.databases) {
    element("h2", `${db.rules} (herd ${db.herd || "none: the moving phase only"})`, box);
    table(box, ["subspace", "phase", "in hand", "canonical positions"],
          db.subspaces.map((s) => [link(s.name, statsUrl(db.rules, s.name)), s.phase,
                                   s.phase === "placing" ? `${s.mover_in_hand}+${s.other_in_hand}` : "–",
                                   number(s.canonical_positions)]));
  }
}

// A bar chart of a histogram (value -> positions) as SVG: one bar per value, the count on a
// square-root scale so that the long tail of rare distances stays visible.
function chart(parent, title, histogram, kind, marked) {
  const values = Object.keys(histogram || {}).map(Number);
  if (!values.length) return;
  element("h3", `${title} (positions on a square-root scale)`, parent);
  const max = Math.max(...values), top = Math.max(...Object.values(histogram));
  const W = 640, H = 200, left = 40, bottom = 24, step = (W - left - 10) / (max + 1);
  const c = svg("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": title }, parent);
  c.dataset.kind = kind;
  const y = (n) => (H - bottom) - (H - bottom - 10) * Math.sqrt(n / top);
  for (const v of values) {
    const n = histogram[v];
    const r = svg("rect", { class: `bar ${kind}${v === marked ? " marked" : ""}`, x: left + v * step, y: y(n),
                            width: Math.max(step - 1, 1), height: H - bottom - y(n) }, c);
    svg("title", {}, r).textContent = `${v}: ${number(n)} positions`;
  }
  const ticks = Math.max(1, Math.ceil((max + 1) / 10));
  for (let v = 0; v <= max; v += ticks)
    svg("text", { x: left + (v + 0.5) * step, y: H - 8, "text-anchor": "middle" }, c).textContent = v;
  svg("text", { x: 4, y: 14 }, c).textContent = number(top);
  svg("text", { x: 4, y: H - bottom }, c).textContent = "0";
}

// The bucket of the position the explorer linked from (its value, distance and plies to the
// next mill in the URL), marked in the histograms.
function markedOf(params) {
  const n = (k) => (params.get(k) === null ? undefined : Number(params.get(k)));
  return { value: params.get("value"), distance: n("distance"), mill: n("mill") };
}

function subspacePage(rules, name, answer, marked = {}) {
  const s = answer.subspaces[name], box = $("stats");
  $("title").textContent = `${rules} ${name}`;
  document.title = `${rules} ${name}: statistics`;
  const all = s.positions;
  element("p", `${s.phase === "placing" ? `Placing, ${s.mover_in_hand} cows in hand for the side to move and ${s.other_in_hand} for the other` : "The moving phase"}: ${number(all)} positions (${number(s.canonical_positions)} up to symmetry), from the side to move's view.`, box);
  const rows = [["win", number(s.win), percent(s.win, all)], ["draw", number(s.draw), percent(s.draw, all)],
                ["loss", number(s.loss), percent(s.loss, all)]];
  table(box, ["pure value", "positions", "share"], rows).id = "wdl";
  if (s.rule) {
    const r = s.rule;
    table(box, ["under the rules", "positions", "share"],
          [["win", r.win], ["cursed win", r.cursed_win], ["draw", r.draw],
           ["blessed loss", r.blessed_loss], ["loss", r.loss]]
            .map(([k, n]) => [k, number(n), percent(n, all)])).id = "rule";
    element("p", "A cursed win is won in the pure game but drawn by the ply limit; a blessed loss is " +
                 "lost in the pure game but saved by it.", box);
  }
  if (s.barred)
    element("p", `Barred positions (stored with a bar): ${number(s.barred.positions)}: ` +
                 `${number(s.barred.win)} win, ${number(s.barred.draw)} draw, ${number(s.barred.loss)} loss.`, box);
  const longest = element("ul", undefined, box, "longest");
  if (s.longest_win_position) {
    const li = element("li", `The longest win, in ${s.max_win_distance} plies: `, longest);
    li.appendChild(link(s.longest_win_position, explorerUrl(s.longest_win_position, rules))).id = "longest-win";
  }
  if (s.longest_loss_position) {
    const li = element("li", `The longest loss, in ${s.max_loss_distance} plies: `, longest);
    li.appendChild(link(s.longest_loss_position, explorerUrl(s.longest_loss_position, rules))).id = "longest-loss";
  }
  if (marked.value)
    element("p", `Marked: the position you came from, a ${marked.value}` +
                 (marked.distance !== undefined ? ` in ${marked.distance} plies` : "") +
                 (marked.mill !== undefined ? `, ${marked.mill} plies to the next mill` : "") + ".",
            box, "marked-note");
  chart(box, "Wins by distance (plies to the end)", s.win_distance_histogram, "win",
        marked.value === "win" ? marked.distance : undefined);
  chart(box, "Losses by distance", s.loss_distance_histogram, "loss",
        marked.value === "loss" ? marked.distance : undefined);
  if (s.wdl_only)
    element("p", "The distances are not stored in this folder (WDL-only tables, `export --streams wdl`): " +
                 "its positions are counted by value only.", box);
  else if (s.loss && s.max_loss_distance === null)
    element("p", "The losses' distances are not stored in this folder (tables of win distances): " +
                 "each is found from its successors when probed.", box);
  // A folder of win distances stores the plies to the next mill of rule wins only.
  const lossesToo = s.max_loss_distance !== null;
  if (s.rule) chart(box, lossesToo ? "Wins and losses under the rules by plies to the next mill"
                                   : "Wins under the rules by plies to the next mill",
                    s.rule.plies_to_mill_histogram, "mill", marked.mill);
  element("p", `Table file: ${number(s.file_bytes)} bytes, ${s.bits_per_position.toFixed(3)} bits a position.`, box);
}

async function start() {
  const params = new URLSearchParams(location.search);
  const rules = params.get("rules"), name = params.get("subspace");
  if (rules && name) {
    const answer = await getJson(`/api/v1/stats?${new URLSearchParams({ rules, subspace: name })}`);
    subspacePage(rules, name, answer, markedOf(params));
  } else {
    overview(await getJson("/api/v1/info"));
  }
  document.body.dataset.shown = "stats";  // for tests: the page has finished drawing
}

start().catch((e) => { $("error").textContent = e.message; document.body.dataset.shown = "stats"; });
