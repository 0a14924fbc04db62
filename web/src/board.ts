// The board as SVG, with the PNG's geometry (render/layout.py) and the default theme's
// colours (render/theme.py): the bottom player's point 1 at the bottom right, 12 bottom
// left, 13 top left, 24 top right; the bar in the middle (the bottom player's checkers in
// its lower half), the borne-off trays on the right rail (the bottom player's below), the
// cube and the checkers waiting to enter on the left rail.
import type { BoardState, StepOption } from "./types";

const U = 50; // pixels a unit (one point's width)
const RAIL_L = 0.25, FIELD_L = 1.65, BAR_X = 7.65, FIELD_R = 8.75, RAIL_R = 14.95;
const TOP = 1.1, HALF = 5, MIDDLE = 1.1;
const MID_Y = TOP + HALF + MIDDLE / 2;
const BOTTOM = TOP + 2 * HALF + MIDDLE;
export const WIDTH = 16.4 * U, HEIGHT = (BOTTOM + 1.5) * U;
export const BAR = 25, OFF = 0;

const THEME = {
  background: "#1c2229", frame: "#33414f", field: "#264a43", points: ["#4f86c6", "#d9a441"],
  bar: "#33414f", tray: "#1f2a33", text: "#e9eef2", muted: "#9aa7b3",
  checkers: [{ fill: "#f4f0e6", rim: "#34302a", text: "#1b1b1b" },
             { fill: "#2a2d35", rim: "#c9ced6", text: "#ffffff" }],
  cube: "#fbfbf8", cubeText: "#111111", highlight: "#ffcf33",
};

const NS = "http://www.w3.org/2000/svg";

function el(name: string, attrs: Record<string, string | number>, parent?: Element): SVGElement {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent: Element, x: number, y: number, value: string, attrs: Record<string, string | number> = {}): void {
  const t = el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central",
                         "font-size": 18, "font-family": "sans-serif", fill: THEME.text, ...attrs }, parent);
  t.textContent = value;
}

/** The x (units) of a point's centre and whether it is in the top half. */
export function pointSpot(p: number): { x: number; top: boolean } {
  if (p <= 6) return { x: FIELD_R + (6 - p) + 0.5, top: false };
  if (p <= 12) return { x: FIELD_L + (12 - p) + 0.5, top: false };
  if (p <= 18) return { x: FIELD_L + (p - 13) + 0.5, top: true };
  return { x: FIELD_R + (p - 19) + 0.5, top: true };
}

function checker(parent: Element, cx: number, cy: number, player: number, label = ""): SVGElement {
  const style = THEME.checkers[player];
  const g = el("g", {}, parent);
  el("circle", { cx: cx * U, cy: cy * U, r: U * 0.46, fill: style.fill, stroke: style.rim, "stroke-width": 3 }, g);
  if (label) text(g, cx * U, cy * U, label, { fill: style.text, "font-size": 20, "font-weight": "bold" });
  return g;
}

/** The centres (units) of a stack of ``count`` checkers on point ``p`` (five at most shown). */
function stack(p: number, count: number): [number, number][] {
  const { x, top } = pointSpot(p);
  const out: [number, number][] = [];
  for (let k = 0; k < Math.min(count, 5); k++) out.push([x, top ? TOP + k + 0.5 : BOTTOM - k - 0.5]);
  return out;
}

export interface Drawn { svg: SVGSVGElement; sources: Set<number>; targets: Map<number, StepOption[]> }

/** Draw ``board``; ``selected``: the point whose destinations are highlighted. */
export function draw(board: BoardState, steps: StepOption[], selected: number | null): Drawn {
  const svg = el("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
                          "aria-label": `Backgammon board ${board.position_id}` }) as SVGSVGElement;
  el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: THEME.background }, svg);
  el("rect", { x: RAIL_L * U, y: (TOP - 0.2) * U, width: 15.9 * U, height: (BOTTOM - TOP + 0.4) * U,
               fill: THEME.frame }, svg);
  for (const x0 of [FIELD_L, FIELD_R]) {
    el("rect", { x: x0 * U, y: TOP * U, width: 6 * U, height: (BOTTOM - TOP) * U, fill: THEME.field }, svg);
  }
  el("rect", { x: BAR_X * U, y: TOP * U, width: 1.1 * U, height: (BOTTOM - TOP) * U, fill: THEME.bar,
               "data-point": BAR, id: "bar" }, svg);
  // Trays: the bottom player's below, the other's above (right rail).
  const trayFor = (player: number) => (player === board.bottom ? MID_Y + 0.2 : TOP);
  for (const player of [0, 1]) {
    const y = trayFor(player);
    el("rect", { x: (RAIL_R + 0.1) * U, y: y * U, width: 1.0 * U, height: (HALF - 0.2) * U,
                 fill: THEME.tray, ...(player === board.bottom ? { "data-point": OFF, id: "tray" } : {}) }, svg);
    const off = board.off[player];
    if (off) text(svg, (RAIL_R + 0.6) * U, (y + 0.5) * U, `${off} off`, { "font-size": 14 });
  }
  for (let p = 1; p <= 24; p++) {
    const { x, top } = pointSpot(p);
    const base = top ? TOP : BOTTOM, tip = top ? TOP + HALF * 0.85 : BOTTOM - HALF * 0.85;
    el("polygon", { points: `${(x - 0.5) * U},${base * U} ${(x + 0.5) * U},${base * U} ${x * U},${tip * U}`,
                    fill: THEME.points[p % 2], "data-point": p, class: "point" }, svg);
    text(svg, x * U, (top ? TOP - 0.35 : BOTTOM + 0.35) * U, String(p), { fill: THEME.muted, "font-size": 15 });
  }
  const sources = new Set(steps.map((s) => s.from));
  const targets = new Map<number, StepOption[]>();
  if (selected !== null) {
    for (const s of steps.filter((s) => s.from === selected)) {
      targets.set(s.to, [...(targets.get(s.to) ?? []), s]);
    }
  }
  for (let p = 1; p <= 24; p++) {
    const s = board.points[p];
    if (!s) continue;
    const spots = stack(p, s.count);
    spots.forEach(([cx, cy], k) => {
      const g = checker(svg, cx, cy, s.player, k === spots.length - 1 && s.count > 5 ? String(s.count) : "");
      g.setAttribute("data-point", String(p));
      if (k === spots.length - 1 && sources.has(p)) {
        g.setAttribute("class", "source" + (selected === p ? " selected" : ""));
        g.setAttribute("data-source", String(p));
        g.querySelector("circle")?.setAttribute("class", selected === p ? "selected" : "");
      }
    });
  }
  // The bar: the bottom player's checkers below the middle, the other's above.
  for (const player of [0, 1]) {
    const n = board.bar[player];
    const down = player === board.bottom;
    for (let k = 0; k < Math.min(n, 4); k++) {
      const cy = MID_Y + (down ? 1 : -1) * (MIDDLE / 2 + 0.5 + k);
      const g = checker(svg, BAR_X + 0.55, cy, player, k === Math.min(n, 4) - 1 && n > 4 ? String(n) : "");
      if (player === board.turn && k === Math.min(n, 4) - 1 && sources.has(BAR)) {
        g.setAttribute("class", "source" + (selected === BAR ? " selected" : ""));
        g.setAttribute("data-source", String(BAR));
      }
    }
  }
  // Checkers waiting to enter (variants), on the left rail.
  for (const player of [0, 1]) {
    const n = board.waiting[player];
    if (!n) continue;
    const y = player === board.bottom ? BOTTOM - 1.5 : TOP + 1.5;
    const g = checker(svg, RAIL_L + 0.6, y, player, String(n));
    if (player === board.turn && sources.has(26)) {
      g.setAttribute("class", "source" + (selected === 26 ? " selected" : ""));
      g.setAttribute("data-source", "26");
    }
  }
  // The cube, on the left rail: centred, or at its owner's side; an offered cube in front
  // of the player who must answer.
  if (board.cube) {
    const c = board.cube;
    const y = c.offered_to !== null ? (c.offered_to === board.bottom ? BOTTOM - 3 : TOP + 3)
      : c.owner === null ? MID_Y : c.owner === board.bottom ? BOTTOM - 0.6 : TOP + 0.6;
    const value = c.offered_to !== null ? c.value * 2 : c.owner === null && c.value === 1 ? 64 : c.value;
    el("rect", { x: (RAIL_L + 0.17) * U, y: (y - 0.43) * U, width: 0.86 * U, height: 0.86 * U, rx: 6,
                 fill: THEME.cube, id: "cube", "data-value": value,
                 "data-owner": c.owner === null ? "" : c.owner }, svg);
    text(svg, (RAIL_L + 0.6) * U, y * U, String(value), { fill: THEME.cubeText, "font-weight": "bold" });
  }
  // The dice, in the half of the player on roll (right half for the bottom player).
  if (board.dice.length && board.turn !== null) {
    const cx = board.turn === board.bottom ? FIELD_R + 3 : FIELD_L + 3;
    board.dice.forEach((d, i) => {
      const used = board.dice_used[i] ?? false;
      const x = cx + (i - (board.dice.length - 1) / 2) * 0.95;
      el("rect", { x: (x - 0.39) * U, y: (MID_Y - 0.39) * U, width: 0.78 * U, height: 0.78 * U, rx: 6,
                   fill: used ? THEME.muted : THEME.cube, class: "die" }, svg);
      text(svg, x * U, MID_Y * U, String(d), { fill: THEME.cubeText, "font-weight": "bold" });
    });
  }
  // Highlighted destinations (from the move builder's steps only).
  for (const [to, options] of targets) {
    let cx: number, cy: number;
    if (to === OFF) { cx = RAIL_R + 0.6; cy = MID_Y + 2.6; }
    else { const spot = pointSpot(to); const n = board.points[to]?.count ?? 0;
      cx = spot.x; cy = spot.top ? TOP + Math.min(n, 4) + 0.5 : BOTTOM - Math.min(n, 4) - 0.5;
      if (options[0].hit) cy = spot.top ? TOP + 0.5 : BOTTOM - 0.5; }
    el("circle", { cx: cx * U, cy: cy * U, r: U * 0.42, class: "target", "data-target": to,
                   "data-word": options[0].word }, svg);
  }
  // The players, their pips and score, under the board (the bottom player on the left).
  const names = [board.bottom, 1 - board.bottom].map((p) => {
    const i = board.players[p];
    const score = i.score === null ? "" : ` · ${i.score}${board.match ? `/${board.match.length}` : ""}`;
    const clock = i.clock ? ` ⏱ ${i.clock}` : "";
    return `${i.name}${i.note ? ` (${i.note})` : ""}: ${i.pips} pips${score}${clock}${board.turn === p ? " ◀" : ""}`;
  });
  text(svg, 4.5 * U, (BOTTOM + 1.0) * U, names[0], { "font-size": 17 });
  text(svg, 12 * U, (BOTTOM + 1.0) * U, names[1], { "font-size": 17 });
  return { svg, sources, targets };
}
