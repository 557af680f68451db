// The shapes the front-end reads from the kernel's traits (see leyline_widget/widget.py and
// replay_widget.py) and the page's own UI state. Types only: nothing here is bundled.

/** A count per element name: {fire: 2, water: 0, ...}. */
export type Counts = Record<string, number>;

/** One grid slot of an observation (Game.observation). */
export interface Cell {
  card: "empty" | "inert" | "active";
  element: string | null;
  tokens: Counts;
}

export interface PlayerView {
  name: string;
  study: Counts;
  markers: Counts;
  marker_tokens: Counts;
  score: number;
  unlocked: string[];
}

/** The `view` trait: one player's (or the teacher's, viewer null) observation of the game. */
export interface View {
  viewer: number | null;
  phase: string;
  turn: number;
  active_player: number;
  elements: string[];
  grid_rows: number;
  grid_cols: number;
  deck: { count: number; top: string | null };
  grid: Cell[];
  players: PlayerView[];
  supply: Counts;
  pool: Counts;
  activations: { used: number; limit: number };
  collect_threshold: number;
  effects: string[];
  powers_used: string[];
  is_over: boolean;
  end_reason: string | null;
  scores: number[];
  winners: number[];
}

/** What a power asks for: how many target cards, and which slots may be chosen. */
export interface PowerSpec {
  min: number;
  max: number;
  slots?: number[];
}

/** The `legal` trait: the kernel's summary of game.legal_actions() for the page. */
export interface Legal {
  step?: number;
  actor?: number | null;
  bot?: boolean | string;
  undo?: boolean;
  end?: boolean;
  variation?: number;
  activate?: number[];
  deactivate?: number[];
  refill?: number[];
  blocked?: Record<number, string>;
  powers?: Record<string, PowerSpec>;
  why_power?: Record<string, string>;
  /** Per element, per source ("supply", "marker", "pool"): "" when allowed, else why not. */
  place?: Record<string, Record<string, string>>;
}

export interface Power {
  element: string;
  tier: string;
  name: string;
  key: string;
  text: string;
  instructions: string;
  /** The kind of its effect (DESIGN.md, "Powers as data"). */
  kind?: string;
}

export interface Seat {
  name: string;
  bot?: string | null;
}

/** The `info` trait: what does not change during a game. */
export interface Info {
  elements?: string[];
  players?: Seat[];
  powers?: Power[];
  thresholds?: Record<string, number>;
  activations?: number;
  collect_threshold?: number;
  turn_limit?: number | null;
  bot_kinds?: string[];
}

/**
 * An action dict as the kernel takes it (leyline_widget/actions.py). Which fields it has
 * depends on `type`; the others are absent (the code checks before it relies on one).
 */
export interface Action {
  type: string;
  slot: number;
  element: string;
  source: string;
  tier: string;
  targets: number[];
}

/**
 * One game event (engine events as dicts). Which fields it has depends on `type`; the others
 * are absent, as in the kernel's JSON (the code checks before it relies on one).
 */
export interface GameEvent {
  type: string;
  slot: number;
  slots: number[];
  element: string | null;
  cause: string;
  visible_to: number[] | string;
  player: number;
  count: number;
  to: string;
  source: string;
  name: string;
  targets: number[];
  to_deck: string;
  turn: number;
  reason: string;
}

/** The `events` trait: the events since the last batch, numbered by `seq`. */
export interface EventBatch {
  seq?: number;
  step?: number;
  items?: GameEvent[];
}

/** One entry of memory_report's `slots`. */
export interface MemorySlot {
  slot: number;
  state: string;
  card: string | null;
  seen: boolean;
  seen_turn?: number;
  how: string;
}

export interface MissedCollection {
  turn: number;
  best: number;
  got: number;
  plan: Record<string, number>;
  options: Record<string, number[]>;
  elements: string[];
}

/** The `memory` trait (memory_report for one player), or {} when none is shown. */
export interface MemoryReport {
  player: number;
  name: string;
  /** Missing in the empty report {} (no memory shown). */
  slots?: MemorySlot[];
  summary: { seen: number; cards: number };
  missed: MissedCollection[];
  never_seen: number[];
}

/** A brief glimpse of an inert card's face, until a time in ms. */
export interface Reveal {
  element: string;
  cause?: string;
  until: number;
}

/** What the play board renders from: traits plus the mode's name. */
export interface BoardState {
  mode?: string;
  view: View;
  legal: Legal;
  info: Info;
  error?: string;
  ack?: number;
  bot_delay_ms?: number;
  remembered?: (string | null)[];
  memory?: MemoryReport;
  /** A lesson's skipped step: slot -> what its solution did there (`lesson.shown`). */
  shown?: Record<string, string[]>;
  /** The play widget's `log` trait (absent in other modes: the page keeps a short log). */
  log?: GameLog;
  /** The finished turns of the log (the `log_past` trait); `log.turns` holds the current one. */
  log_past?: LogTurn[];
  /** Hot-seat: the seat the board waits to be passed to ({} when none). */
  handoff?: { to?: number; from?: number | null };
  session?: SessionGame[];
  deal_ms?: number;
  /** The coach's Hint button (`hint` trait): off when empty. */
  hint?: CoachHint;
  /** Each seat's table settings (`prefs` trait): seats per setting. */
  prefs?: Record<string, number[]>;
  /** Every slot's element once the game is over (`final_grid` trait); empty before. */
  final_grid?: (string | null)[];
  /** A seat at a network table (js/src/net.js): the server starts the tables, so the game's
   * end offers no seat menu, New game or Rematch. */
  network?: boolean;
}

/** The `hint` trait: hints used per seat and the suggestion for `seat` at `step`. */
export interface CoachHint {
  enabled?: boolean;
  used?: number[];
  seat?: number;
  step?: number;
  suggestion?: { action: Action; label: string; reason: string; value: number; plan?: Action[] };
}

/** The `log` trait: the game in words for this viewer, by turn (widgets/presenters.game_log). */
export interface LogTurn {
  turn: number;
  player: number | null;
  lines: string[];
}

export interface GameLog {
  turns?: LogTurn[];
  /** The finished turns this update brings: they go at index `from` of the page's `log_past`. */
  recent?: { from: number; turns: LogTurn[] };
  /** What the other seats did on the board since this seat's last turn, per slot. */
  marks?: Record<string, string[]>;
  /** The other seats' turns since this seat's last one, a line each. */
  recap?: { turn: number; player: number; text: string }[];
  turns_played?: number[];
}

/** One finished game of this widget (the `session` trait). */
export interface SessionGame {
  players: string[];
  scores: number[];
  winners: number[];
  turns: number;
  reason: string | null;
}

/** A short motion cue on a slot (looks only; input never waits for it). */
export interface Motion {
  kind: string;
  element?: string | null;
  until: number;
}

/** The play page's own state: what the player is in the middle of, never a rule. */
export interface PlayUi {
  /** The seat menu's choices for the next game (seat -> "human" or a bot kind). */
  seats: Record<number, string>;
  pending: { slot?: number; act?: string } | null;
  power: string | null;
  targets: number[];
  infoPower: string | null;
  source: { element: string; source: string } | null;
  focus: number;
  reveals: Record<string, Reveal>;
  log: string[];
  hint: string;
  paused: boolean;
  dismissed: string | null;
  /** The batch waiting to be shown (board off screen, deal not yet Ready, hand-off pending). */
  queued: { seq: number; items: GameEvent[]; deal: boolean } | null;
  /** The set-up deal: "none", "waiting" (for Ready), "ready" (pressed), "showing". */
  deal: string;
  motion: Record<string, Motion>;
  announce: string;
  rules: boolean;
  /** A replay's own marks on cards by slot (the last move's cards, a note's highlights). */
  cardClasses?: Record<number, string[]>;
  /** A replay's title for every card (while a note's form picks cards), over the card's hint. */
  cardTitle?: string;
}

/** The `lesson` trait (LessonSession.state() and the course place). */
export interface LessonState {
  lesson?: string;
  title: string;
  section: string;
  rule: string;
  intro: string;
  step: number;
  total: number;
  instruction: string;
  status: string;
  done: boolean;
  feedback: { kind: string; text: string } | null;
  hints: string[];
  hints_left: number;
  mistakes: number;
  skipped: number[];
  player: number;
  index: number;
  count: number;
  epoch: number;
  /** After "Skip step (show me)": slot -> what the step's solution did there. */
  shown?: Record<string, string[]>;
  next_lesson: string | null;
  next_title?: string | null;
  /** The lesson's closing words (shown with the summary once it is done). */
  summary?: string;
  /** Hints asked for in the whole lesson. */
  hints_used?: number;
  /** A recall lesson's count: steps asking for remembered cards, and those right at once. */
  recall?: { asked: number; first_try: number } | null;
}

/** One entry of the `lessons` trait (the course navigator). */
export interface LessonEntry {
  id: string;
  title: string;
  status: string;
  current: boolean;
  /** Finished in another lesson widget of this kernel, not (yet) in this one. */
  elsewhere?: boolean;
}

export interface LessonPanelState {
  lesson: LessonState;
  lessons: LessonEntry[];
  ack?: number;
  remembered: (string | null)[];
}

/** A replay line: the main line (parent null) or a variation branching at `start`. */
export interface Line {
  id: number;
  name: string;
  parent: number | null;
  start: number;
  end: number;
}

/** One step of a replay line: its position's turn, player and phase, the action and events. */
export interface LineEntry {
  turn: number;
  player: number;
  phase: string;
  action: Action | null;
  events?: GameEvent[];
}

export interface Note {
  variation: number;
  step: number;
  index: number;
  text: string;
  tags?: string[];
  highlights?: number[];
}

export interface NoteWhere {
  variation: number;
  step: number;
  index: number;
}

/** One reviewed decision of the coach, keyed by the step it led to (widgets/book.py). */
export interface AnalysisMove {
  step: number;
  played: Action;
  best: Action;
  loss: number;
  verdict: string;
  reason: string;
  best_value: number | null;
  played_value: number | null;
  /** The cause the reason names (agents/causes.py), "" when there is nothing to explain. */
  cause?: string;
  /** What "Show the line" plays, and the slots "Best was" marks on the board. */
  best_line?: Action[];
  best_slots?: number[];
}

/** The answer to a puzzle (ReplayWidget.puzzle.last). */
export interface PuzzleAnswer {
  index: number;
  move: number;
  guess: Action;
  solved: boolean;
  loss: number;
  played: Action;
  best: Action;
  verdict: string;
  reason: string;
  cause?: string;
}

/** Puzzles from a review (ReplayWidget(replay, puzzles=seat)). */
export interface PuzzleState {
  seat?: number;
  total?: number;
  index?: number;
  answered?: number;
  solved?: number;
  move?: number | null;
  verdict?: string | null;
  done?: boolean;
  last?: PuzzleAnswer | null;
}

/** One seat's review of the shown line. */
export interface Analysis {
  player: number;
  budget?: number;
  moves: AnalysisMove[];
}

/** The kernel's analysis run (ReplayWidget.analysis_progress). */
export interface AnalysisProgress {
  seat?: number;
  done?: number;
  total?: number;
  running?: boolean;
  error?: string;
  /** Stopped by Cancel before its end. */
  cancelled?: boolean;
  /** The page drives it, one decision per `analyse_step` (a kernel without threads). */
  stepped?: boolean;
  /** Which analysis of this widget (the page names it in each step request). */
  run?: number;
}

/** What the replay page renders from. */
export interface ReplayState extends BoardState {
  step: number;
  variation: number;
  viewer: number | null;
  viewers: (number | null)[];
  lines: Line[];
  line: LineEntry[];
  annotations: Note[];
  memory: MemoryReport;
  show_memory_of: number | null;
  memory_choices: number[];
  hide_tags: string[];
  editable: boolean;
  reveal_ms: number;
  /** The studio (replay studio issue): glyphs by step, scores per step, exploring, training. */
  glyphs?: Record<string, string>;
  scores?: number[][];
  explore?: boolean;
  allow_explore?: boolean;
  choices?: { action: Action }[];
  train?: number | null;
  training?: Training;
  /** A standalone page's files (from its book); absent in Jupyter, where the kernel builds them. */
  downloads?: { json?: string; markdown?: string } | null;
  /** The coach: the reviews the viewer may see; the kernel's run (absent on a standalone page). */
  analyses?: Analysis[];
  analysis_progress?: AnalysisProgress | null;
  /** Puzzles from the seat's mistakes (null unless ReplayWidget(replay, puzzles=seat)). */
  puzzle?: PuzzleState | null;
}

export interface Training {
  seat: number;
  right: number;
  total: number;
  last: { step: number; guess: Action; played: Action; right: boolean } | null;
}

export interface NoteForm {
  open: boolean;
  editing: NoteWhere | null;
  text: string;
  tags: string;
  highlights: number[];
  seq: number;
  pending: boolean;
}

/** What the player is choosing on the board before a move (picks.js): a power and its targets, a Binding source. */
export type Picks = Pick<PlayUi, "power" | "targets" | "infoPower" | "source">;

/** The replay page's own state: nothing here is a rule or a position. */
export interface ReplayUi extends Picks {
  reveals: Record<string, Reveal>;
  playing: boolean;
  speed: number;
  showHidden: boolean;
  dismissed: string | null;
  hint: string;
  confirm: string | null;
  form: NoteForm;
  /** The variation whose name is being edited, or null. */
  renaming: number | null;
  /** The set-up deal was shown and "Ready" clicked (a player's page shows it at step 0 first). */
  dealt: boolean;
  /** The last `export` payload downloaded (its seq). */
  exported: number;
  /** The rules panel is open (the board's Rules button). */
  rules: boolean;
}

/** A stream of values as Python's `stream` writes it: a base and patches [[path, value], ...]. */
export type Patch = [(string | number)[], unknown][];
export interface Stream<T = unknown> {
  base: T;
  patches?: Patch[];
}

/** What Replay.to_html precomputes for a standalone page (replay_widget.replay_book). */
export interface Book {
  lines?: Line[];
  info?: Info;
  viewers?: (number | null)[];
  hide_tags?: string[];
  reveal_ms?: number;
  notes?: Record<number, Note[]>;
  start: { step: number; variation: number; viewer: number | null };
  /** Per viewer key ("all" or a seat number), per line id. */
  frames: Record<string, Record<number, Stream<View>>>;
  entries: Record<string, Record<number, { of?: string; base?: LineEntry[]; patches?: Patch }>>;
  memory?: { player: number; lines: Record<number, Stream<MemoryReport>> } | null;
  glyphs?: Record<number, Record<string, string>>;
  scores?: Record<number, number[][]>;
  analyses?: Record<number, Analysis[]>;
  downloads?: { json?: string; markdown?: string };
}

/** The part of anywidget's model API the front-end uses. */
export interface Model {
  get(key: string): any;
  set(key: string, value: unknown): void;
  save_changes(): void;
  send(message: object): void;
  on(name: string, callback: () => void): void;
  off(name: string, callback: () => void): void;
}

/** What anywidget passes to `render`. */
export interface RenderProps {
  model: Model;
  el: HTMLElement;
}

/** A mode mounts into `el` and returns its cleanup. */
export type Mode = (props: RenderProps) => () => void;
