// The table page: one seat's view (or a spectator's), drawn from the server's JSON and nothing else.
// The key comes from the invitation link's fragment (#k=KEY), which is never sent to the server in a
// URL; it is kept in this browser's storage, and travels only in the Authorization header and in the
// WebSocket's first message. Every rule is the server's: this script only draws the view it is sent
// and sends the card, castle or choice clicked.
"use strict";

const app = document.getElementById("app");
const TABLE = app.dataset.table;
const STORE = "schachett-key:" + TABLE;
const fromLink = new URLSearchParams(location.hash.slice(1)).get("k");
if (fromLink) localStorage.setItem(STORE, fromLink);
const KEY = fromLink || localStorage.getItem(STORE);
let view = null;
let socket = null;
let retry = 500;
let busy = false;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
};
const seatName = (s) => (view.seats[s] ? view.seats[s].name : "seat " + s);
const Cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);     // "the dummy's hand" starting a line
const cardImg = (card, cls = "card") =>
  el("img", { class: cls, src: `/cards/${view.ruleset}/${encodeURIComponent(card)}.svg`, alt: card, title: card });

function headers() {
  const h = { "Content-Type": "application/json" };
  if (KEY) h["Authorization"] = "Bearer " + KEY;
  return h;
}

async function fetchView() {
  const r = await fetch(`/api/tables/${TABLE}`, { headers: headers() });
  const body = await r.json();
  if (!r.ok) return say(body.error, true);
  draw(body);
}

async function send(action) {
  if (busy) return;
  busy = true;
  say("");
  try {
    const r = await fetch(`/api/tables/${TABLE}/actions`, { method: "POST", headers: headers(), body: JSON.stringify(action) });
    const body = await r.json();
    if (!r.ok) {
      const text = body.error || "refused";
      say(text + (body.clause && !text.includes(body.clause) ? ` (${body.clause})` : ""), true);
    }
    else draw(body);
  } catch (e) {
    say("The server cannot be reached; your card was not played. Try again in a moment.", true);
  } finally {
    busy = false;
  }
}

function say(text, isError = false) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
  m.classList.toggle("error", isError);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${TABLE}`);
  socket.onopen = () => { retry = 500; socket.send(JSON.stringify({ key: KEY || null })); };
  socket.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.view) draw(msg.view);
    else if (msg.type === "error") say(msg.error, true);
  };
  socket.onclose = () => { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); };
}

// --- drawing -----------------------------------------------------------------------------------
function draw(v) {
  if (view && v.version < view.version && v.game === view.game) return;   // an older view arrived late
  view = v;
  document.body.dataset.version = v.version;       // for a test or a script that waits for the next view
  document.body.dataset.game = v.game;
  document.title = `${v.title} · game ${v.game} · Schachett`;
  const you = v.seat === null ? "watching (no cards shown but what every player sees)" :
    `you are ${seatName(v.seat)}, player ${v.player}`;
  $("where").textContent = `${v.title} · game ${v.game}, round ${v.round} · ${you}`;
  drawStatus(v);
  drawSeats(v);
  drawTrick(v);
  drawHands(v);
  drawCastle(v);
  drawDecision(v);
  drawEvents(v);
  drawScore(v);
  drawEnd(v);
}

function drawStatus(v) {
  let text;
  if (v.over) text = `Game ${v.game} is over.` + (v.decision === "next" ? " Start the next game when you are ready." : "");
  else if (v.away) text = "A bot plays your seat while you are away.";
  else if (v.turn && v.turn.yours && v.decision === "castle") text = "Your decision: castle, or let the chance go.";
  else if (v.turn && v.turn.yours && DECIDING[v.decision]) text = "Your decision: " + DECIDING[v.decision](v.family) + ".";
  else if (v.turn && v.turn.yours) {
    const hand = v.turn.seat === v.seat ? "" : ` from ${seatName(v.turn.seat)}'s hand`;
    text = `Your turn: play a card${hand}.` + (v.forced_by ? ` You ${v.forced_by}.` : "");
  } else if (v.turn) text = `${v.turn.decider_name} to ${PHASE_WORDS[v.turn.phase] || "play"}…`;
  $("status").textContent = Cap(text || "");
  $("status").classList.toggle("yours", !!(v.turn && v.turn.yours && !v.away));
}

// the decisions before play: what the status line asks, and what the others are seen doing
const DECIDING = {
  give: (f) => f.to_give ? `you took the ${f.offered}: give ${seatName(f.declarer)} ${f.to_give} card${f.to_give === 1 ? "" : "s"} back, face down (${f.cites.offer})` :
    `pass ${f.to_pass} cards on, one at a time (${f.cites.passing})` + (f.passed.length ? `; passed so far: ${f.passed.join(" ")}` : ""),
  bid: (f) => `your bid (${f.cites.auction})`,
  call: (f) => "call the card whose holder plays with you",
  discard: (f) => `lay away ${f.to_discard} card${f.to_discard === 1 ? "" : "s"} face down`,
  answer: (f) => `${seatName(f.declarer)} offers a card${f.offered ? `, the ${f.offered}` : " face down"}: take it and play with ${seatName(f.declarer)}, or pass (${f.cites.offer})`,
};
const PHASE_WORDS = { castle: "decide on castling", passing: "pass cards on", auction: "bid", call: "call a card", exchange: "lay cards away",
  offer: "answer the card offered", return: "give a card back" };

function drawSeats(v) {
  const box = $("seats");
  box.replaceChildren();
  for (const s of v.seats) {
    const marks = [];
    if (s.seat === v.dealer) marks.push("deals");
    if (s.seat === v.leader && !v.over && v.phase === "play") marks.push("leads");
    if (v.family && v.family.declarer === s.seat) marks.push("declarer");
    if (v.family && v.family.sitting.includes(s.seat)) marks.push("sits out");
    if (v.family && v.family.partners && v.family.partners.includes(s.seat)) marks.push("your partner");
    const king = v.kings.filter(([seat]) => seat === s.seat).map(([, c]) => c);
    const who = s.kind === "dummy" ? `dummy of ${seatName(s.played_by)}` :
      s.kind === "person" ? `player ${s.player}` + (s.away ? " (away: a bot plays)" : "") : `${s.kind.slice(4)} bot ${s.player}`;
    const chip = el("div", { class: "seat party" + s.party + (s.you ? " you" : "") +
      (v.turn && !v.over && v.turn.seat === s.seat ? " turn" : "") },
      el("strong", { text: Cap(s.name) + (s.you ? " (you)" : "") }), el("span", { class: "who", text: who }));
    if (marks.length) chip.append(el("span", { class: "marks", text: marks.join(", ") }));
    if (king.length) chip.append(el("span", { class: "king", text: "face up: " + king.join(" ") }));
    box.append(chip);
  }
}

function trickRow(cards, winner) {
  const row = el("div", { class: "played" });
  for (const [seat, card] of cards) {
    row.append(el("figure", { class: "play" + (seat === winner ? " won" : "") }, cardImg(card),
      el("figcaption", { text: seatName(seat) + (seat === winner ? " takes it" : "") })));
  }
  return row;
}

function drawTrick(v) {
  // before play (passing, bidding, an offer, an exchange) who leads may still change: Hearts' two of clubs moves
  const beforePlay = !["play", "castle", "over"].includes(v.phase);
  $("trick-title").textContent = v.over ? `All ${v.n_tricks} tricks played` : beforePlay ?
    `Trick ${v.trick_number} of ${v.n_tricks} · play has not begun` :
    `Trick ${v.trick_number} of ${v.n_tricks} · ${Cap(seatName(v.leader))} leads`;
  const trick = $("trick");
  trick.replaceChildren(v.trick.length ? trickRow(v.trick, null) : el("p", { class: "empty", text: v.over ? "" : "No card played yet." }));
  const last = $("last");
  last.hidden = !v.last_trick;
  if (v.last_trick) {
    const t = v.last_trick;
    last.replaceChildren(el("h3", { text: `Last trick, ${t.number}: ${seatName(t.winner)} took it with ${t.winning_card}, ${t.points} card point${t.points === 1 ? "" : "s"}` }),
      trickRow(t.cards, t.winner));
    if (t.why.length) last.append(el("ul", { class: "why" }, ...t.why.map((w) => el("li", { text: w }))));
  }
}

function handRow(cards, playable, choose = null) {
  // choose: a decision before play (a card passed on or laid away) instead of a card played
  const row = el("div", { class: "cards" });
  const legal = new Set(choose ? view.choices : view.legal);
  cards.forEach((card, i) => {
    if (!playable) { row.append(cardImg(card)); return; }
    const ok = legal.has(card);
    const b = el("button", { type: "button", class: "card-button" + (ok ? " legal" : " not-legal"),
      "aria-label": `${card}${ok ? (choose ? `, may be ${choose}` : ", may be played") : ", not allowed now"}`, "data-card": card }, cardImg(card));
    b.addEventListener("click", () => send(choose ? { decide: card } : { card }));
    row.append(b);
  });
  return row;
}

function drawHands(v) {
  const mine = $("hand");
  const myTurn = v.turn && v.turn.yours && v.decision === "card" && !v.away;
  mine.replaceChildren();
  if (v.seat !== null && !(v.hand && v.hand.length === 0)) {
    const title = v.hand === null ? `Your hand (${seatName(v.seat)}) lies face down until the dummy has played` :
      `Your hand, ${seatName(v.seat)} (${v.hand.length} cards)`;
    mine.append(el("h2", { text: title }));
    const picking = v.turn && v.turn.yours && !v.away && (v.decision === "give" || v.decision === "discard");
    const given = v.decision === "give" ? (v.phase === "return" ? "given back" : "passed on") : "laid away";
    if (v.hand) mine.append(picking ? handRow(v.hand, true, given)
      : handRow(v.hand, myTurn && v.turn.seat === v.seat));
    mine.append(...onFaceDown(v, v.seat, v.hand || []));
  }
  const dummy = $("dummy");
  const others = v.hands.filter((h) => h.seat !== v.seat && h.cards.length);
  dummy.hidden = !others.length;
  dummy.replaceChildren();
  for (const h of others) {
    const playsIt = v.plays_for.includes(h.seat);
    dummy.append(el("h2", { text: Cap(`${h.name}'s hand, open on the table`) + (playsIt ? " — you play it" : "") }));
    dummy.append(handRow(h.cards, myTurn && playsIt && v.turn.seat === h.seat));
    dummy.append(...onFaceDown(v, h.seat, h.cards));
  }
}

// In a tableau, the face-up cards of a seat that still lie on a face-down card: playing one turns that card up.
function onFaceDown(v, seat, hand) {
  const piles = (v.family && v.family.tableau) || [];
  const covering = new Set(piles.filter((p) => p.seat === seat && p.under === null).map((p) => p.card));
  const cards = hand.filter((card) => covering.has(card));          // in the hand's own order
  return cards.length ? [el("p", { class: "face-down", text: `On a face-down card: ${cards.join(" ")} (playing one turns the card under it up)` })] : [];
}

function drawCastle(v) {
  const box = $("castle");
  const open = v.decision === "castle" && v.turn && v.turn.yours && !v.away;
  box.hidden = !open;
  box.replaceChildren();
  if (!open) return;
  box.append(el("h2", { text: "Castling" }));
  for (const o of v.castle_offers) {
    const how = o.kind === "rescue" ? `Rescue ${o.king}, just taken: it goes to ${seatName(o.officer_from)}'s hand, and an officer of that hand takes its place in the trick.` :
      `Exchange ${o.king} for an officer of ${seatName(o.officer_from)}'s hand.`;
    box.append(el("p", { text: how }));
    const row = el("div", { class: "cards" });
    for (const officer of [...new Set(o.officers)]) {
      const b = el("button", { type: "button", class: "card-button legal", "aria-label": `castle ${o.king} for ${officer}` }, cardImg(officer),
        el("span", { class: "under", text: `take ${officer}` }));
      b.addEventListener("click", () => send({ castle: { officer, king: o.king } }));
      row.append(b);
    }
    box.append(row);
  }
  const pass = el("button", { type: "button", class: "secondary", text: "Let the chance go" });
  pass.addEventListener("click", () => send({ pass: true }));
  box.append(el("p", {}, pass));
}

function drawDecision(v) {
  // what the table said and showed before play (only what this seat may know), and the bids or calls open to it
  const box = $("decision");
  const f = v.family;
  box.hidden = !f;
  box.replaceChildren();
  if (!f) return;
  const lines = [];
  if (f.turned) lines.push(el("p", { class: "turned" }, "Turned up: ", cardImg(f.turned, "card small"), ` ${f.turned}`));
  if (f.bids.length) lines.push(el("p", { class: "bids", text: "Bids: " + f.bids.map((b) => `${seatName(b.seat)} ${b.title}`).join(", ") }));
  if (f.contract) lines.push(el("p", { class: "contract", text: `Contract: ${f.contract_title}` + (f.declarer !== null ? ` by ${seatName(f.declarer)}` : "") +
    (f.trump_name ? `; trumps ${f.trump_name}` : "") }));
  if (f.called) lines.push(el("p", { class: "called", text: `Called card: ${f.called}` + (f.partners === null ? " (who holds it is not known yet)" : "") }));
  if (f.partners && f.partners.length) lines.push(el("p", { class: "partners", text: "You play with " + f.partners.map(seatName).join(" and ") }));
  if (f.sitting.length) lines.push(el("p", { text: "Sitting out: " + f.sitting.map(seatName).join(", ") }));
  if (f.received.length) lines.push(el("p", { class: "received", text: "You received: " + f.received.map(([s, c]) => `${c} from ${seatName(s)}`).join(", ") }));
  if (f.answers.length) lines.push(el("p", { class: "offered", text: `The card offered${f.offered ? ` (${f.offered})` : ""}: ` +
    f.answers.map((a) => `${seatName(a.seat)} ${a.take ? "takes it" : "passes"}`).join(", ") }));
  if (f.given_back.length) lines.push(el("p", { class: "given-back", text: "Given back for it: " + f.given_back.join(" ") }));
  box.append(...lines);
  const mine = v.turn && v.turn.yours && !v.away;
  if (mine && (v.decision === "bid" || v.decision === "call" || v.decision === "answer")) {
    box.append(el("h2", { text: v.decision === "bid" ? "Your bid" : v.decision === "call" ? "Call a card" : "The card offered" }));
    const row = el("div", { class: "choices" });
    for (const word of [...new Set(v.choices)]) {
      const b = v.decision === "call" ?
        el("button", { type: "button", class: "card-button legal", "aria-label": `call ${word}`, "data-choice": word }, cardImg(word)) :
        el("button", { type: "button", class: word === "pass" ? "secondary" : "primary", "data-choice": word, text: word });
      b.addEventListener("click", () => send({ decide: word }));
      row.append(b, " ");
    }
    box.append(row);
  }
  box.hidden = !box.childElementCount;     // nothing said or shown yet (Hearts before its passing): no empty panel
}

function drawEvents(v) {
  const box = $("events");
  box.replaceChildren();
  for (const e of v.events) {
    box.append(el("p", { class: "event", text: `♚ Trick ${e.trick}: ${e.event} — ${Cap(seatName(e.owner))}'s ${e.king} taken by ${seatName(e.taker)}, ` +
      `${e.order} King, ${e.points} points to ${e.scoring_parties.map((p) => v.score.parties[p]).join(" and ")} (${e.cite})` }));
  }
  for (const c of v.castles) {
    const when = c.kind === "before" ? "before play" : c.kind === "between" ? `after trick ${c.trick}` : `rescuing a King in trick ${c.trick}`;
    box.append(el("p", { class: "castled", text: `♜ ${Cap(seatName(c.seat))} castled ${when}: ${c.king} for ${c.officer} (${c.cite})` }));
  }
}

function drawScore(v) {
  const s = v.score;
  const beforePlay = v.turn && !["play", "castle"].includes(v.turn.phase);
  if (!s.parties && beforePlay) {      // passing, bidding, an offer or an exchange: no trick yet to score
    $("score").replaceChildren(el("p", { text: "No trick has been played yet." }));
  } else if (!s.parties) {      // the parties are not known to this seat yet: tricks by seat
    $("score").replaceChildren(el("p", { text: "Who plays with whom is not known yet. Tricks taken: " +
      s.by_seat.map((n, seat) => `${seatName(seat)} ${n}`).join(", ") }));
  }
  const rows = !s.parties ? null : s.parties.map((name, p) => el("tr", {}, el("th", { scope: "row", text: name }),
    el("td", { text: s.tricks ? String(s.tricks[p]) : "–" }), el("td", { text: s.points ? String(s.points[p]) : "–" })));
  if (rows) $("score").replaceChildren(el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "Party" }), el("th", { text: "Tricks" }), el("th", { text: v.over ? "Points" : "Points so far" }))),
    el("tbody", {}, ...rows)));
  const ledger = $("ledger");
  ledger.replaceChildren();
  if (v.ledger) {
    const done = v.games.filter((g) => g.over).length;
    ledger.append(el("h3", { text: `Ledger after ${done} game${done === 1 ? "" : "s"}` }),
      el("table", {}, el("thead", {}, el("tr", {}, ...["Player", "Games", "Won", "Points", "Money"].map((t) => el("th", { text: t })))),
        el("tbody", {}, ...v.ledger.map((l) => el("tr", {}, el("th", { scope: "row", text: l.player }),
          ...[l.games, l.won, l.points, l.money].map((x) => el("td", { text: String(x) })))))));
  }
  const away = $("away");
  away.hidden = v.seat === null;
  away.textContent = v.away ? "Come back to the table" : "Leave: a bot plays for me";
  away.onclick = () => send({ away: !v.away });
  const games = $("games");
  games.replaceChildren(...v.games.filter((g) => g.over).map((g) =>
    el("a", { href: `/tables/${TABLE}/games/${g.number}/replay`, class: "replay-link", text: `replay game ${g.number}` })));
}

function drawEnd(v) {
  const box = $("end");
  box.hidden = !v.over;
  box.replaceChildren();
  if (!v.over) return;
  const r = v.result;
  const parties = v.score.parties;
  const win = r.thrown_in ? (r.contract ? "Nobody took the card offered" : "Every player passed") + ": the cards are thrown in." :
    r.winner === null ? "Nobody wins: equal points." : `${Cap(parties[r.winner])} win.`;
  const contract = r.contract ? `Contract: ${r.contract}` + (r.trump ? ` (${r.trump})` : "") +
    (r.declarer !== null ? ` by ${seatName(r.declarer)}` : "") + (r.partner !== null ? ` with ${seatName(r.partner)}` : "") + " · " : "";
  const gp = r.game_points.length ? " · game points: " + parties.map((p, i) => `${p} ${r.game_points[i]}`).join(", ") : "";
  const money = r.unit ? ` · settlement (${r.unit}): ` + v.seats.map((s, i) => `${s.name} ${r.net[i] > 0 ? "+" : ""}${r.net[i]}`).join(", ") : "";
  box.append(el("h2", { text: `Game ${v.game} is over. ${win}` }),
    el("p", { class: "result", text: contract + "Totals: " + parties.map((p, i) => `${p} ${r.totals[i]}`).join(", ") + gp + money }),
    el("pre", { class: "report", text: v.report }));
  const links = el("p", { class: "controls" });
  if (v.decision === "next") {
    const next = el("button", { type: "button", class: "primary", id: "next-game", text: "Next game" });
    next.addEventListener("click", () => send({ next: true }));
    links.append(next, " ");
  }
  links.append(el("a", { href: `/api/tables/${TABLE}/games/${v.game}/record`, download: `schachett-${TABLE}-${v.game}.json`, text: "Download the record" }),
    " · ", el("a", { href: `/tables/${TABLE}/games/${v.game}/replay`, text: "Replay it trick by trick" }));
  box.append(links);
}

fetchView().catch(() => say("The server cannot be reached.", true));
connect();
