/**
 * The longest run of plain ASCII characters every match of a JavaScript regular expression must
 * contain, or `undefined` when none can be told safely (an alternation at the top, no run of two
 * characters or more). Used to skip files that cannot match before the expression runs, and as
 * ripgrep's fixed-string prefilter. Conservative: anything it does not understand ends a run, so
 * the literal is always a substring of every match (for `ignore_case`, up to ASCII case).
 */
export function requiredLiteral(source: string, fixed: boolean): string | undefined {
  if (fixed) return longestAscii([source.split('\n').reduce((a, b) => (b.length > a.length ? b : a), '')]);
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run !== '') runs.push(run);
    run = '';
  };
  let depth = 0;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    const next = source[index + 1];
    if (character === '\\') {
      const escaped = source[index + 1];
      index += 1;
      if (depth > 0) continue;
      if (escaped !== undefined && /[.*+?^${}()|[\]\\/\-]/.test(escaped)) {
        if (quantifiedNext(source, index + 1)) end();
        else run += escaped;
      } else {
        end();
      }
      continue;
    }
    if (character === '[') {
      index = classEnd(source, index);
      end();
      continue;
    }
    if (character === '(') {
      depth += 1;
      end();
      continue;
    }
    if (character === ')') {
      depth = Math.max(0, depth - 1);
      end();
      continue;
    }
    if (depth > 0) continue;
    if (character === '|') return undefined;
    if ('.^$'.includes(character)) {
      end();
      continue;
    }
    if ('*?{'.includes(character)) {
      // The character before may be absent (or repeated): drop it from the run.
      run = run.slice(0, -1);
      end();
      if (character === '{') index = Math.max(index, source.indexOf('}', index));
      continue;
    }
    if (character === '+') {
      end();
      continue;
    }
    if (next !== undefined && quantifiedNext(source, index + 1) && '*?{'.includes(next)) {
      end();
      continue;
    }
    run += character;
  }
  end();
  return longestAscii(runs);
}

function quantifiedNext(source: string, index: number): boolean {
  const next = source[index];
  return next === '*' || next === '?' || next === '{';
}

function classEnd(source: string, start: number): number {
  for (let index = start + 1; index < source.length; index += 1) {
    if (source[index] === '\\') index += 1;
    else if (source[index] === ']' && index > start + 1) return index;
  }
  return source.length;
}

function longestAscii(runs: readonly string[]): string | undefined {
  let best = '';
  for (const run of runs) {
    // Only printable ASCII: ripgrep searches bytes, and a Latin-1 file spells other characters differently.
    for (const piece of run.split(/[^\x20-\x7e]+/)) if (piece.length > best.length) best = piece;
  }
  return best.length >= 2 ? best : undefined;
}
