// Helpers of the explorer's pages (explorer.js, stats.js): everything they draw comes from this
// server's /api/v1.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);

async function getJson(path) {
  const res = await fetch(path);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
  return body;
}

function svg(tag, attributes, parent) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

function element(tag, text, parent, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  if (parent) parent.appendChild(e);
  return e;
}

// A link to the explorer showing `position` of `rules`.
function explorerUrl(position, rules) {
  const q = new URLSearchParams({ position });
  if (rules) q.set("rules", rules);
  return `/?${q}`;
}
