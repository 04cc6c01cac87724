// The search technique switches (the engine's SearchConfig, by their lowerCamel names) and the
// counters of what each did in the last search.
import type { StatsPayload } from '../api/types';
import { el } from './dom';
import { formatCount } from './format';

export interface Technique {
  name: string;
  label: string;
  defaultOn: boolean;
  /** The search counters that tell what this technique did (engine/search counter names). */
  counters?: string[];
}

// Names and defaults mirror the engine's SearchConfig; a CTest check (tests/uci/page_techniques_match.py)
// fails when they drift apart. Once the page has the server's GET /api/v1/engine, the server's
// list wins (adoptServerTechniques): a server with other defaults or more switches is shown as it is.
export const TECHNIQUES: Technique[] = [
  { name: 'aspiration', label: 'Aspiration windows', defaultOn: true, counters: ['aspirationFailHighs', 'aspirationFailLows'] },
  { name: 'transpositionTable', label: 'Transposition table', defaultOn: true, counters: ['ttHits', 'ttCutoffs', 'hashMoveCutoffs'] },
  { name: 'killers', label: 'Killer moves', defaultOn: true, counters: ['killerCutoffs'] },
  { name: 'history', label: 'History heuristic', defaultOn: true, counters: ['historyCutoffs'] },
  { name: 'mvvLva', label: 'MVV-LVA ordering', defaultOn: true },
  { name: 'recaptureFirst', label: 'Recaptures first', defaultOn: false },
  { name: 'see', label: 'Static exchange evaluation', defaultOn: true, counters: ['seePrunes', 'quiescenceSeePrunes'] },
  { name: 'quiescenceChecks', label: 'Checks in quiescence', defaultOn: true, counters: ['quiescenceCheckMoves'] },
  { name: 'twoSidedQuiescence', label: 'Two-sided quiescence', defaultOn: false, counters: ['threatsDetected', 'threatEvasions'] },
  { name: 'deltaPruning', label: 'Delta pruning', defaultOn: true, counters: ['deltaPrunes'] },
  { name: 'nullMove', label: 'Null-move pruning', defaultOn: true, counters: ['nullMoveTries', 'nullMoveCutoffs', 'nullMoveVerifications'] },
  { name: 'futility', label: 'Futility pruning', defaultOn: true, counters: ['futilityPrunes'] },
  { name: 'extendedFutility', label: 'Extended futility', defaultOn: true, counters: ['extendedFutilityPrunes'] },
  { name: 'razoring', label: 'Razoring', defaultOn: false, counters: ['razoringReductions'] },
  { name: 'aggressiveFutility', label: 'Aggressive futility', defaultOn: false, counters: ['aggressiveFutilityPrunes'] },
  { name: 'lateMoveReductions', label: 'Late move reductions', defaultOn: true, counters: ['lateMoveReductions', 'lateMoveResearches'] },
  { name: 'checkExtension', label: 'Check extension', defaultOn: false, counters: ['checkExtensions'] },
  { name: 'mateDistancePruning', label: 'Mate distance pruning', defaultOn: true, counters: ['mateDistancePrunes'] },
  { name: 'reverseFutility', label: 'Reverse futility', defaultOn: true, counters: ['reverseFutilityPrunes'] },
  { name: 'lateMovePruning', label: 'Late move pruning', defaultOn: true, counters: ['lateMovePrunes'] },
  { name: 'internalIterativeReductions', label: 'Internal iterative reductions', defaultOn: true, counters: ['internalIterativeReductions'] },
  { name: 'continuationHistory', label: 'Continuation history', defaultOn: true },
  { name: 'captureHistory', label: 'Capture history', defaultOn: true },
  { name: 'counterMoves', label: 'Counter moves', defaultOn: true, counters: ['counterMoveCutoffs'] },
  { name: 'historyPruning', label: 'History pruning', defaultOn: false, counters: ['historyPrunes'] },
  { name: 'seeQuietPruning', label: 'SEE pruning of quiet moves', defaultOn: true, counters: ['seeQuietPrunes'] },
  { name: 'correctionHistory', label: 'Correction history', defaultOn: true },
  { name: 'singularExtensions', label: 'Singular extensions', defaultOn: true, counters: ['singularExtensions', 'singularMultiCuts', 'negativeExtensions'] },
  { name: 'probCut', label: 'ProbCut', defaultOn: true, counters: ['probCuts'] },
  { name: 'nodeShareTime', label: "Time by the best move's node share", defaultOn: false },
  { name: 'fallingEvalTime', label: 'More time when the score falls', defaultOn: true },
  { name: 'ttPv', label: 'Former PV nodes reduced less', defaultOn: false },
  { name: 'extendedLateMoveReductions', label: 'Late move reductions of captures and killers, deeper/shallower re-search', defaultOn: false, counters: ['lmrDeeperResearches', 'lmrShallowerResearches'] },
  { name: 'singularExtended', label: 'Singular extensions from depth 6, double and negative', defaultOn: true, counters: ['doubleExtensions'] },
  { name: 'correctionHistoryExtended', label: 'Correction history by pieces and material too', defaultOn: true },
  { name: 'continuationHistory4', label: 'Continuation history 4 plies back', defaultOn: true },
  { name: 'ttCaptureReduction', label: 'Quiet moves reduced more when the table move captures', defaultOn: true, counters: ['ttCaptureReductions'] },
  { name: 'childCutoffReduction', label: 'Late moves reduced more after many refuted moves', defaultOn: true, counters: ['childCutoffReductions'] },
  { name: 'failHighBlend', label: 'Fail-high scores pulled toward beta', defaultOn: true, counters: ['failHighBlends'] },
  { name: 'quiescenceTableEval', label: 'Table score as quiescence stand pat', defaultOn: true, counters: ['quiescenceTableEvals'] },
  { name: 'improvingFallback', label: '"Improving" four plies back after a check', defaultOn: true },
  { name: 'captureHistoryOrdering', label: 'Captures by victim plus capture history', defaultOn: false },
  { name: 'ttCutoffHistory', label: 'Table cutoffs teach history', defaultOn: false, counters: ['ttCutoffHistoryUpdates'] },
  { name: 'evalDiffHistory', label: 'History from the eval swing of the last move', defaultOn: false, counters: ['evalDiffHistoryUpdates'] },
  { name: 'reverseFutilityBlend', label: 'Reverse futility returns toward beta', defaultOn: false, counters: ['reverseFutilityBlends'] },
  { name: 'threatOrdering', label: 'Quiet moves out of attack first, into it last', defaultOn: false },
  { name: 'checkOrdering', label: 'Safe quiet checks earlier', defaultOn: false },
  { name: 'threatHistory', label: 'History apart for attacked squares', defaultOn: false },
  { name: 'network', label: 'Network evaluation (off: hand-crafted)', defaultOn: true },
];

/** "lateMovePruning" -> "Late move pruning": a label for a switch the page does not know. */
function labelFromName(name: string): string {
  const words = name.replace(/([A-Z])/g, ' $1').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Takes the defaults (and any switch the page lacks) from the server's engine description. */
export function adoptServerTechniques(fromServer: Array<{ name: string; default: boolean }>): void {
  // A switch this server does not have would be refused in a request: drop it.
  const served = new Set(fromServer.map((t) => t.name));
  for (let i = TECHNIQUES.length - 1; i >= 0; i--) if (!served.has(TECHNIQUES[i].name)) TECHNIQUES.splice(i, 1);
  for (const { name, default: on } of fromServer) {
    const known = TECHNIQUES.find((t) => t.name === name);
    if (known) known.defaultOn = on;
    else TECHNIQUES.push({ name, label: labelFromName(name), defaultOn: on });
  }
}

/** Counters as name → count, whichever of the usual JSON shapes the server used. */
export function normaliseStats(stats: StatsPayload | undefined): Map<string, number> {
  const out = new Map<string, number>();
  if (!stats) return out;
  if (Array.isArray(stats)) {
    for (const entry of stats as unknown[]) {
      if (Array.isArray(entry) && typeof entry[0] === 'string') out.set(entry[0], Number(entry[1]));
      else if (entry && typeof entry === 'object' && 'name' in entry) {
        const named = entry as { name: string; count: number };
        out.set(named.name, Number(named.count));
      }
    }
  } else {
    for (const [name, count] of Object.entries(stats)) out.set(name, Number(count));
  }
  return out;
}

/** Counters that belong to a technique: its known ones, else those named after it. */
function countersFor(technique: Technique, stats: Map<string, number>): Array<[string, number]> {
  if (technique.counters) {
    return technique.counters.filter((c) => stats.has(c)).map((c) => [c, stats.get(c) ?? 0]);
  }
  const lower = technique.name.toLowerCase();
  return [...stats].filter(([counter]) => counter.toLowerCase().startsWith(lower));
}

/** "nullMoveCutoffs" -> "cutoffs": the counter's name without the technique's words. */
function shortCounterName(counter: string): string {
  const words = counter.replace(/([A-Z])/g, ' $1').toLowerCase().trim().split(' ');
  return words[words.length - 1];
}

export function renderTechniques(
  list: HTMLElement,
  other: HTMLElement,
  options: Record<string, boolean>,
  stats: Map<string, number>,
  onToggle: (name: string, on: boolean) => void,
): void {
  list.replaceChildren();
  const claimed = new Set<string>();
  for (const technique of TECHNIQUES) {
    const item = el('li', 'toggle');
    const label = el('label');
    const input = el('input');
    input.type = 'checkbox';
    input.setAttribute('role', 'switch');
    input.name = technique.name;
    input.checked = options[technique.name] ?? technique.defaultOn;
    input.addEventListener('change', () => onToggle(technique.name, input.checked));
    label.append(input, el('span', 'toggle-track'), el('span', 'toggle-label', technique.label));
    item.appendChild(label);
    const counters = countersFor(technique, stats);
    for (const [counter] of counters) claimed.add(counter);
    const countText = counters.map(([counter, n]) =>
      counters.length > 1 ? `${shortCounterName(counter)} ${formatCount(n)}` : formatCount(n),
    );
    const count = el('span', 'toggle-count', countText.join(' · '));
    count.title = counters.map(([c, n]) => `${c}: ${n}`).join('\n');
    item.appendChild(count);
    list.appendChild(item);
  }
  const rest = [...stats].filter(([name]) => !claimed.has(name));
  other.replaceChildren();
  if (rest.length) {
    other.appendChild(el('h3', undefined, 'Other counters'));
    const dl = el('dl');
    for (const [name, n] of rest) {
      const row = el('div');
      row.append(el('dt', undefined, name), el('dd', undefined, formatCount(n)));
      dl.appendChild(row);
    }
    other.appendChild(dl);
  }
}
