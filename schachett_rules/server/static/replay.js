// The replay viewer: a finished game trick by trick, forwards and back (buttons, or the arrow keys).
// Step 0 is the deal; step k shows every hand before trick k and the trick as it was played.
"use strict";

const root = document.getElementById("replay");
const TABLE = root.dataset.table, NUMBER = root.dataset.number;
let data = null, step = 0, ruleset = "";
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
};
const img = (card) => el("img", { class: "card", src: `/cards/${ruleset}/${encodeURIComponent(card)}.svg`, alt: card, title: card });
const seat = (s) => data.seat_names[s] || "seat " + s;

function show(k) {
  const tricks = data.report.tricks;
  step = Math.max(0, Math.min(k, tricks.length));
  $("step").textContent = step === 0 ? "The deal" : `Trick ${step} of ${tricks.length}`;
  $("prev").disabled = $("first").disabled = step === 0;
  $("next").disabled = $("last-step").disabled = step === tricks.length;
  const trick = $("r-trick"), why = $("r-why");
  trick.replaceChildren();
  why.replaceChildren();
  const hands = step === 0 ? data.hands[0] : (data.hands[step - 1] || data.end);
  if (step > 0) {
    const t = tricks[step - 1];
    const row = el("div", { class: "played" });
    for (const [s, c] of t.cards) {
      row.append(el("figure", { class: "play" + (s === t.winner ? " won" : "") }, img(c), el("figcaption", { text: seat(s) + (s === t.winner ? " takes it" : "") })));
    }
    trick.append(el("h3", { text: `${seat(t.leader)} leads; ${seat(t.winner)} takes it with ${t.winning_card}, ${t.points} card points` }), row);
    for (const w of t.why) why.append(el("li", { text: w }));
    for (const e of t.events) why.append(el("li", { class: "event", text: `♚ ${e.event}: ${seat(e.owner)}'s ${e.king} taken by ${seat(e.taker)}, ${e.points} points (${e.cite})` }));
  } else {
    trick.append(el("p", { class: "empty", text: "Every hand as dealt. Step forward to see the tricks." }));
  }
  const box = $("r-hands");
  box.replaceChildren();
  hands.forEach((cards, s) => {
    box.append(el("h2", { text: `${seat(s)} — ${cards.length} cards` + (step > 0 ? " before this trick" : "") }),
      el("div", { class: "cards" }, ...cards.map(img)));
  });
}

async function load() {
  const r = await fetch(`/api/tables/${TABLE}/games/${NUMBER}/replay`);
  data = await r.json();
  if (!r.ok) { $("r-text").textContent = data.error; return; }
  ruleset = data.report.ruleset;
  $("r-text").textContent = data.text;
  show(0);
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(step - 1));
$("next").addEventListener("click", () => show(step + 1));
$("last-step").addEventListener("click", () => show(Infinity));
document.addEventListener("keydown", (e) => {
  if (!data) return;
  if (e.key === "ArrowRight") show(step + 1);
  if (e.key === "ArrowLeft") show(step - 1);
});
load();
