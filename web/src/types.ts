// The JSON the bot sends (bot/adapters/web/state.py).

export interface Stack { player: number; count: number }

export interface BoardState {
  bottom: number;
  turn: number | null;
  points: (Stack | null)[];
  bar: number[];
  off: number[];
  waiting: number[];
  players: { name: string; pips: number; score: number | null; note: string; clock: string }[];
  dice: number[];
  dice_used: boolean[];
  dice_words: string;
  cube: { value: number; owner: number | null; offered_to: number | null } | null;
  match: { length: number; crawford: boolean } | null;
  resignation: { player: number; kind: string } | null;
  game_over: { winner: number; kind: string; points: number } | null;
  variant: string;
  position_id: string;
  match_id: string;
  caption: string;
}

export interface StepOption { word: string; from: number; to: number; die: number; hit: boolean }

export interface ButtonOption { action: string; label: string; option: string }

// An open challenge waiting in the channel (bot/service/lobby/open.py's Waiting).
export interface OpenChallenge {
  match: number; version: number; challenger: string; terms: string; expires: number;
  accept: boolean;
}

export interface State {
  type: "state";
  ok: boolean;
  text: string;
  notices: string[];
  version: number | null;
  match: number | null;
  board: BoardState | null;
  buttons: ButtonOption[];
  steps: StepOption[];
  builder?: string;
  open: OpenChallenge[];
}
