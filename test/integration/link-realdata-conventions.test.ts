/**
 * How many classes of the real exports in ../shared/realdata the class mapper maps when the service writes them in
 * another federation's convention (issue 12): German long forms, Swiss codes with the long form beside them, level
 * letters written apart, and relay legs numbered after the class name. The class lists are the exports' own, read by
 * the project's IOF reader; the service lists are written from them by hand-made renderers below, which know nothing
 * of the mapper's tables, so the figure measures the mapper, not a copy of it.
 *
 * Pure: the mapping step of `link` on the two lists (`link-realdata.test.ts` runs the whole job over HTTP). The floors
 * are the figures measured when the conventions were added; the counts print so a change can be compared. A class the
 * renderer cannot write in the convention (`Nero`, `MSV`) is kept as the export writes it and counted apart.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { iofEmsSource } from '../../src/ems/iof-source.js';
import type { EmsClass } from '../../src/ems/source.js';
import { matchClasses } from '../../src/match/classes.js';
import { realdataPath } from '../helpers/files.js';

type Gender = 'M' | 'W';
interface Code {
  gender: Gender;
  age?: number;
  level?: string;
  open?: boolean;
}

/** The H/D and M/W codes and words the real exports use (`H21`, `D-12`, `D10A`, `HE`, `HB`, `Men`, `H. Open`). */
function readCode(name: string): Code | undefined {
  const words: Record<string, Gender> = { men: 'M', women: 'W' };
  if (words[name.toLowerCase()]) return { gender: words[name.toLowerCase()]! };
  const open = /^([HD])\. Open$/.exec(name);
  if (open) return { gender: open[1] === 'H' ? 'M' : 'W', open: true };
  const m = /^([HDMW])-?(\d{1,2})?([EAB])?$/.exec(name);
  if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
  return {
    gender: m[1] === 'H' || m[1] === 'M' ? 'M' : 'W',
    ...(m[2] === undefined ? {} : { age: Number(m[2]) }),
    ...(m[3] === undefined ? {} : { level: m[3] }),
  };
}

/** German long form: Herren/Damen, Knaben/Mädchen to 14, Junioren/Juniorinnen to 20, Senioren/Seniorinnen from 35. */
function german(c: Code): string {
  const age = c.age ?? 21;
  const [men, women] =
    age <= 14
      ? ['Knaben', 'Mädchen']
      : age <= 20
        ? ['Junioren', 'Juniorinnen']
        : age >= 35
          ? ['Senioren', 'Seniorinnen']
          : ['Herren', 'Damen'];
  const word = c.gender === 'M' ? men : women;
  if (c.open) return `${word} Offen`;
  if (c.level === 'E') return `${word} Elite`;
  const ageText = c.age === undefined ? '' : ` ${c.age}`;
  return `${word}${ageText}${c.level ? ` ${c.level}` : ''}`;
}

const swissLetter = (c: Code) => (c.gender === 'M' ? 'H' : 'D');

const CONVENTIONS: Record<string, (c: Code) => string> = {
  /** `Herren 21`, `Mädchen 12`, `Herren Elite`, `Herren B`. */
  'german long form': german,
  /** `H21 (Herren 21)`, `D12 (Mädchen 12)`, `HE (Herren Elite)`. */
  'swiss code with long form': (c) =>
    c.open || (c.age === undefined && c.level === undefined)
      ? german(c)
      : `${swissLetter(c)}${c.age ?? ''}${c.level ?? ''} (${german(c)})`,
  /** `H 21`, `D 10-A`, `H-E`, `D-B`. */
  'level letters apart': (c) =>
    c.open || (c.age === undefined && c.level === undefined)
      ? german(c)
      : c.age === undefined
        ? `${swissLetter(c)}-${c.level}`
        : `${swissLetter(c)} ${c.age}${c.level ? `-${c.level}` : ''}`,
};

interface Count {
  /** Classes the convention rewrote, and how many of them mapped to their rewritten name. */
  converted: number;
  mappedConverted: number;
  total: number;
  mapped: number;
  wrong: number;
}

/** Maps `ems` against `service`; `expected` says which service name each EMS class is. */
function count(ems: EmsClass[], service: string[], expected: string[], converted: boolean[]): Count {
  const mapping = matchClasses(
    ems,
    service.map((name, i) => ({ id: i + 1, name })),
  );
  const c: Count = { converted: 0, mappedConverted: 0, total: ems.length, mapped: 0, wrong: 0 };
  ems.forEach((e, i) => {
    const match = mapping.matches.find((m) => m.ems === e);
    if (converted[i]) c.converted++;
    if (!match) return;
    if (match.service.name !== expected[i]) {
      c.wrong++;
      return;
    }
    c.mapped++;
    if (converted[i]) c.mappedConverted++;
  });
  return c;
}

async function exportsWithClasses(): Promise<{ file: string; classes: EmsClass[] }[]> {
  const out: { file: string; classes: EmsClass[] }[] = [];
  for (const dir of ['iof2', 'iof3']) {
    for (const name of readdirSync(realdataPath(dir)).sort()) {
      const file = `${dir}/${name}`;
      const read = await iofEmsSource(realdataPath(file))
        .read()
        .catch(() => undefined);
      if (read && read.classes.length > 0) out.push({ file, classes: read.classes });
    }
  }
  return out;
}

function measure(exports: { file: string; classes: EmsClass[] }[]): Record<string, Record<string, Count>> {
  const out: Record<string, Record<string, Count>> = {};
  for (const { file, classes } of exports) {
    const row: Record<string, Count> = {};
    const codes = classes.map((c) => readCode(c.name));
    for (const [convention, render] of Object.entries(CONVENTIONS)) {
      const service = classes.map((c, i) => (codes[i] ? render(codes[i]) : c.name));
      const plain = classes.map(({ name }) => ({ name }));
      row[convention] = count(plain, service, service, codes.map(Boolean));
    }
    // Relay legs numbered after the class name, each relay (a class with legs) or H/D class run as one: the export
    // keeps a class per leg (`H21-1`, `H21-2`), the service the class as the export names it.
    const relays = classes.filter((c, i) => (c.legs ?? 0) > 1 || codes[i] !== undefined);
    if (relays.length > 0) {
      const legs = relays.flatMap((c) =>
        Array.from({ length: c.legs ?? 3 }, (_, l) => ({
          leg: { name: `${c.name}-${l + 1}`, ...(c.legs === undefined ? {} : { legs: c.legs }) },
          relay: c.name,
        })),
      );
      row['relay legs numbered'] = count(
        legs.map((l) => l.leg),
        relays.map((c) => c.name),
        legs.map((l) => l.relay),
        legs.map(() => true),
      );
    }
    out[file] = row;
  }
  return out;
}

/**
 * The figures measured when the conventions were added (issue 12): [file, convention, rewritten classes mapped]. Each
 * is every class the convention rewrote; before the conventions the same measurement mapped 68 of the 275 rewritten
 * classes (the level letters apart, most German long forms not at all, no numbered leg).
 */
const FLOORS: [string, string, number][] = [
  ['iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml', 'german long form', 6],
  ['iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml', 'swiss code with long form', 6],
  ['iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml', 'level letters apart', 6],
  ['iof2/splitsbrowserjava_winsplits_ResultList_v203_latin1.xml', 'relay legs numbered', 18],
  ['iof3/liveresults_helga_ResultList_relay_snapshot.xml', 'german long form', 1],
  ['iof3/liveresults_helga_ResultList_relay_snapshot.xml', 'swiss code with long form', 1],
  ['iof3/liveresults_helga_ResultList_relay_snapshot.xml', 'level letters apart', 1],
  ['iof3/liveresults_helga_ResultList_relay_snapshot.xml', 'relay legs numbered', 2],
  ['iof3/liveresults_helga_StartList_BMInterclubs2017.xml', 'german long form', 37],
  ['iof3/liveresults_helga_StartList_BMInterclubs2017.xml', 'swiss code with long form', 37],
  ['iof3/liveresults_helga_StartList_BMInterclubs2017.xml', 'level letters apart', 37],
  ['iof3/liveresults_helga_StartList_BMInterclubs2017.xml', 'relay legs numbered', 111],
  ['iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml', 'german long form', 2],
  ['iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml', 'swiss code with long form', 2],
  ['iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml', 'level letters apart', 2],
  ['iof3/liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml', 'relay legs numbered', 6],
];

describe('class mapping of real exports against the service in other conventions', () => {
  it('maps the classes it can and none wrong, at least as many as when the conventions were added', async () => {
    const exports = await exportsWithClasses();
    expect(exports.length).toBeGreaterThanOrEqual(9);
    const figures = measure(exports);
    const lines: string[] = [];
    let wrong = 0;
    for (const [file, row] of Object.entries(figures)) {
      for (const [convention, c] of Object.entries(row)) {
        wrong += c.wrong;
        lines.push(
          `${file}\t${convention}\tconverted ${c.mappedConverted}/${c.converted}\tall ${c.mapped}/${c.total}\twrong ${c.wrong}`,
        );
      }
    }
    console.log(`class mapping of real exports\n${lines.join('\n')}`);
    expect(wrong).toBe(0);
    for (const [file, convention, floor] of FLOORS) {
      expect(figures[file]?.[convention]?.mappedConverted ?? 0, `${file} ${convention}`).toBeGreaterThanOrEqual(floor);
    }
  });
});
