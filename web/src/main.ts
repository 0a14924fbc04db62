// The page: sign in (Discord's SDK inside Discord, a name outside it), a websocket to the
// bot, the board drawn from each state, and moves by tap-tap or drag and drop among the
// move builder's steps. No rule is decided here: the bot sends the legal steps and the
// buttons this user may press, and refuses (saying why) what it does not accept.
import { draw, type Drawn } from "./board";
import type { State, StepOption } from "./types";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

let state: State | null = null;
let selected: number | null = null;
let drawn: Drawn | null = null;
let socket: WebSocket | null = null;
let session = "";
let signIn: () => Promise<string> = async () => "";
let retry = 500;
let received = 0;
let playerOf: number | null = null;

async function post(path: string, body: unknown): Promise<any> {
  const answer = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                     body: JSON.stringify(body) });
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(data.error ?? `HTTP ${answer.status}`);
  return data;
}

function say(text: string): void { $("notice").textContent = text; }

function send(message: object): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else say("Not connected: reconnecting…");
}

function act(action: string, option = "", withVersion = true): void {
  say("");
  const extra = withVersion && state ? { version: state.version, match: state.match } : {};
  send({ type: "act", action, option: option || null, ...extra });
}

function step(word: string): void {
  selected = null;
  act("step", word, false);
}

// The channel's open challenges: who, the terms, the time left; Accept for anyone but the
// challenger (the bot's open-challenge accept decides, and says why not).
function renderOpen(s: State): void {
  const list = $("open-challenges");
  list.replaceChildren();
  for (const o of s.open ?? []) {
    const item = document.createElement("li");
    item.dataset.match = String(o.match);
    const words = document.createElement("span");
    const minutes = Math.max(0, Math.round((o.expires * 1000 - Date.now()) / 60000));
    words.textContent = `${o.challenger}'s open challenge: ${o.terms} (expires in about ${minutes} min)`;
    item.appendChild(words);
    if (o.accept) {
      const button = document.createElement("button");
      button.textContent = "Accept";
      button.dataset.action = "accept-open";
      button.addEventListener("click", () => {
        say("");
        send({ type: "act", action: "accept", option: null, version: o.version, match: o.match });
      });
      item.appendChild(button);
    }
    list.appendChild(item);
  }
}

function render(): void {
  const box = $("board-box");
  box.replaceChildren();
  drawn = null;
  const s = state;
  if (!s) return;
  $("status").textContent = [s.text, ...s.notices, s.builder ?? ""].filter(Boolean).join("\n");
  $("position-id").textContent = s.board?.position_id ? `Position ID ${s.board.position_id}` : "";
  $("challenge").hidden = s.board !== null || !session || !localMode;
  if (s.board) {
    if (selected !== null && !s.steps.some((x) => x.from === selected)) selected = null;
    drawn = draw(s.board, s.steps, selected);
    box.appendChild(drawn.svg);
  }
  const buttons = $("buttons");
  buttons.replaceChildren();
  const shown = [...s.buttons];
  // A page that was offered a turn's buttons in this match is a player's: it may resign at
  // any time (the service decides whether it may, and says why not).
  if (s.buttons.length || s.steps.length) playerOf = s.match;
  if (s.board && playerOf !== null && playerOf === s.match && !s.board.game_over
      && !s.buttons.some((b) => b.action.endsWith("resignation"))) {
    shown.push({ action: "resign", label: "Resign", option: "single" });
  }
  if (!s.board && localMode) {
    shown.push({ action: "accept", label: "Accept a challenge", option: "" },
               { action: "decline", label: "Decline", option: "" });
  }
  renderOpen(s);
  for (const b of shown) {
    const button = document.createElement("button");
    button.textContent = b.label;
    button.dataset.action = b.action;
    button.addEventListener("click", () => act(b.action, b.option));
    buttons.appendChild(button);
  }
}

// -- moving: tap a checker then its destination, or drag it there ----------------------

function pointAt(x: number, y: number): { source: number | null; target: StepOption | null; point: number | null } {
  let source: number | null = null, target: StepOption | null = null, point: number | null = null;
  for (const node of document.elementsFromPoint(x, y)) {
    const e = node as Element;
    const t = e.closest("[data-target]");
    if (t && target === null) {
      const to = Number(t.getAttribute("data-target"));
      target = state?.steps.find((s) => s.from === selected && s.to === to) ?? null;
    }
    const src = e.closest("[data-source]");
    if (src && source === null) source = Number(src.getAttribute("data-source"));
    const p = e.closest("[data-point]");
    if (p && point === null) point = Number(p.getAttribute("data-point"));
  }
  return { source, target, point };
}

function destinationAt(x: number, y: number): StepOption | null {
  const { target, point } = pointAt(x, y);
  if (target) return target;
  if (point === null || selected === null || !state) return null;
  return state.steps.find((s) => s.from === selected && s.to === point) ?? null;
}

let drag: { from: number; ghost: SVGElement; x: number; y: number; moved: boolean } | null = null;

function svgPoint(ev: PointerEvent): DOMPoint {
  const svg = drawn!.svg;
  const p = new DOMPoint(ev.clientX, ev.clientY);
  return p.matrixTransform(svg.getScreenCTM()!.inverse());
}

function onDown(ev: PointerEvent): void {
  if (!drawn || !state?.steps.length) return;
  const hit = pointAt(ev.clientX, ev.clientY);
  if (hit.target) { step(hit.target.word); return; }
  if (selected !== null) {
    const chosen = destinationAt(ev.clientX, ev.clientY);
    if (chosen) { step(chosen.word); return; }
  }
  if (hit.source === null) { selected = null; render(); return; }
  selected = hit.source;
  render();
  const g = drawn.svg.querySelector(`[data-source="${selected}"]`);
  const circle = g?.querySelector("circle");
  if (!circle) return;
  const ghost = circle.cloneNode() as SVGElement;
  ghost.setAttribute("opacity", "0.8");
  ghost.setAttribute("pointer-events", "none");
  drawn.svg.appendChild(ghost);
  const p = svgPoint(ev);
  drag = { from: selected, ghost, x: p.x, y: p.y, moved: false };
  drawn.svg.setPointerCapture?.(ev.pointerId);
}

function onMove(ev: PointerEvent): void {
  if (!drag || !drawn) return;
  const p = svgPoint(ev);
  if (Math.hypot(p.x - drag.x, p.y - drag.y) > 8) drag.moved = true;
  drag.ghost.setAttribute("cx", String(p.x));
  drag.ghost.setAttribute("cy", String(p.y));
}

function onUp(ev: PointerEvent): void {
  if (!drag) return;
  const { moved, ghost } = drag;
  drag = null;
  ghost.remove();
  if (!moved) return; // a tap: the checker stays selected, its destinations shown
  const chosen = destinationAt(ev.clientX, ev.clientY);
  if (chosen) step(chosen.word);
}

// -- the connection ------------------------------------------------------------------

// A watch page (/watch/N, where the game's server allows it): no sign-in, nothing to press.
const watching = /^\/watch\/(\d+)$/.exec(location.pathname)?.[1] ?? null;
let ended = false;

function connect(): void {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = watching ? `/ws/watch/${watching}` : "/ws";
  const ws = new WebSocket(`${scheme}://${location.host}${path}`);
  socket = ws;
  ws.addEventListener("open", () => {
    retry = 500;
    if (!watching) ws.send(JSON.stringify({ type: "hello", session }));
  });
  ws.addEventListener("message", async (ev) => {
    const data = JSON.parse(String(ev.data));
    if (data.type === "state") {
      state = data as State;
      render();
      received += 1;
      document.body.dataset.states = String(received); // how many states were drawn
    }
    else if (data.type === "refused" || data.type === "said") say(data.text);
    else if (data.type === "ended") { ended = true; say(data.text); }
    else if (data.type === "signin") {
      try { session = await signIn(); ws.send(JSON.stringify({ type: "hello", session })); }
      catch (e) { say(String((e as Error).message)); }
    }
  });
  ws.addEventListener("close", () => {
    if (socket !== ws || ended) return;
    say("Connection lost: reconnecting…");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

let localMode = false;

async function start(): Promise<void> {
  if (watching) {
    $("who").textContent = `Watching game ${watching} (read-only)`;
    connect();
    return;
  }
  const settings = await (await fetch("/api/settings")).json();
  const box = $("board-box");
  box.addEventListener("pointerdown", onDown);
  box.addEventListener("pointermove", onMove);
  box.addEventListener("pointerup", onUp);
  if (settings.mode === "local") {
    localMode = true;
    const params = new URLSearchParams(location.search);
    const remembered = sessionStorage.getItem("bgbot-name") ?? params.get("name") ?? "";
    const channel = params.get("channel") ?? sessionStorage.getItem("bgbot-channel") ?? "table";
    signIn = async () => {
      const name = sessionStorage.getItem("bgbot-name") ?? "";
      const chan = sessionStorage.getItem("bgbot-channel") ?? "table";
      const data = await post("/api/local/login", { name, channel: chan });
      $("who").textContent = `${data.user.name} in #${chan}`;
      return data.session;
    };
    const begin = async (name: string, chan: string) => {
      sessionStorage.setItem("bgbot-name", name);
      sessionStorage.setItem("bgbot-channel", chan);
      session = await signIn();
      $("signin").hidden = true;
      connect();
    };
    $("challenge").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      send({ type: "challenge", opponent: ($("opponent") as HTMLInputElement).value });
    });
    if (remembered) { await begin(remembered, channel); return; }
    const form = $("signin") as HTMLFormElement;
    form.hidden = false;
    ($("channel") as HTMLInputElement).value = channel;
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      begin(($("name") as HTMLInputElement).value, ($("channel") as HTMLInputElement).value)
        .catch((e) => say(String(e.message)));
    });
    return;
  }
  // Inside Discord: authorize, exchange the code on the bot (which holds the client secret),
  // authenticate the SDK, then open a session for this activity instance.
  // The SDK is loaded only inside Discord (its own chunk: the local page does without it).
  const { DiscordSDK } = await import("@discord/embedded-app-sdk");
  const sdk = new DiscordSDK(settings.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: settings.client_id, response_type: "code", state: "", prompt: "none",
    scope: ["identify"],
  });
  const { access_token } = await post("/api/token", { code });
  await sdk.commands.authenticate({ access_token });
  signIn = async () => {
    const data = await post("/api/session", { access_token, instance_id: sdk.instanceId });
    $("who").textContent = data.user.name;
    return data.session;
  };
  session = await signIn();
  connect();
}

start().catch((e) => say(`The board could not start: ${e.message ?? e}`));
