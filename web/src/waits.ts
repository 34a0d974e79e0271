// A hand's waits, as server/rules/shanten.py `waits` finds them: the kinds (0-33) that
// complete a 3n+1 hand as four sets and a pair, seven pairs or thirteen orphans, leaving out
// a kind the seat holds all four of (its melds included).  The page works them out itself,
// as riichi-play does (client_cli/seat_state.py): events do not carry them.

const ORPHANS = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

export function counts34(tiles: readonly number[]): number[] {
  const counts = new Array<number>(34).fill(0);
  for (const tile of tiles) counts[tile >> 2] += 1;
  return counts;
}

/** Whether the counts (a pair already taken out, or not yet) split into sets. */
function sets(counts: number[], pairTaken: boolean): boolean {
  let k = 0;
  while (k < 34 && counts[k] === 0) k += 1;
  if (k === 34) return pairTaken;
  if (!pairTaken && counts[k] >= 2) {
    counts[k] -= 2;
    const ok = sets(counts, true);
    counts[k] += 2;
    if (ok) return true;
  }
  if (counts[k] >= 3) {
    counts[k] -= 3;
    const ok = sets(counts, pairTaken);
    counts[k] += 3;
    if (ok) return true;
  }
  if (k < 27 && k % 9 <= 6 && counts[k + 1] > 0 && counts[k + 2] > 0) {
    counts[k] -= 1; counts[k + 1] -= 1; counts[k + 2] -= 1;
    const ok = sets(counts, pairTaken);
    counts[k] += 1; counts[k + 1] += 1; counts[k + 2] += 1;
    if (ok) return true;
  }
  return false;
}

/** Whether 3n+2 counts (with `melds` declared melds beside them) are a complete hand. */
export function isComplete(counts: number[], melds: number): boolean {
  if (melds === 0) {
    const kinds = counts.filter((c) => c > 0);
    if (kinds.length === 7 && kinds.every((c) => c === 2)) return true;
    if (ORPHANS.every((k) => counts[k] >= 1) && ORPHANS.reduce((n, k) => n + counts[k], 0) === 14) return true;
  }
  return sets(counts.slice(), false);
}

/** The waits of a 3n+1 hand (its tiles); `held` counts every tile the seat holds, melds included. */
export function handWaits(hand: readonly number[], melds: number, held: readonly number[]): number[] {
  const counts = counts34(hand);
  const out: number[] = [];
  for (let k = 0; k < 34; k += 1) {
    if (held[k] >= 4 || counts[k] >= 4) continue;
    counts[k] += 1;
    if (isComplete(counts, melds)) out.push(k);
    counts[k] -= 1;
  }
  return out;
}
