/**
 * The validator's verdicts against native `xmllint --noout --schema schemas/IOF.xsd FILE`, the reference: for every
 * IOF 3.0 example, every real IOF 3.0 export, the writer's output for every course example, and the hostile files the
 * validator hands to libxml2, the verdict matches xmllint's exit status (0 valid, anything else invalid) and the first
 * error is on the same line. IOF 2.0.3 files, checked against the DTD translated to a schema, get the verdict of
 * `xmllint --dtdvalid IOFdata-2.0.3.dtd` (lines differ by design: a DTD blames the parent element). CI installs
 * native xmllint (`.ci/run`); without it these suites are skipped, saying why.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCourseData } from '../../src/iof/read-course-data.js';
import { iofSchemaPath } from '../../src/iof/schema-path.js';
import { validate, type IofValidationResult } from '../../src/iof/validate/validate.js';
import { writeCourseData } from '../../src/iof/write-course-data.js';
import { fixturePath, iofExamplePath, realdataPath } from '../helpers/files.js';

const nativeXmllint = spawnSync('xmllint', ['--version'], { encoding: 'utf8' });
const NATIVE_MISSING = nativeXmllint.error !== undefined || nativeXmllint.status !== 0;
const SKIP_REASON = 'native xmllint is not installed (CI installs libxml2-utils in .ci/run)';

interface NativeVerdict {
  status: number;
  firstErrorLine: number | undefined;
  stderr: string;
}

/** Native xmllint on one file: its exit status and the line of its first error. `--nonet`: never fetch anything. */
function nativeVerdict(path: string): NativeVerdict {
  const run = spawnSync('xmllint', ['--nonet', '--noout', '--schema', iofSchemaPath(), path], { encoding: 'utf8' });
  const located = run.stderr
    .split('\n')
    .map((line) => (line.startsWith(`${path}:`) ? /^:(\d+):/.exec(line.slice(path.length)) : null))
    .find((m) => m !== null);
  return { status: run.status ?? -1, firstErrorLine: located ? Number(located[1]) : undefined, stderr: run.stderr };
}

const dirFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((f) => join(dir, f));

const EXAMPLES = dirFiles(iofExamplePath(''));
const REAL_IOF3 = dirFiles(realdataPath('iof3'));
const COURSE_EXAMPLES = EXAMPLES.filter((f) => /\/CourseData_[^/]*$/.test(f));
const HOSTILE = dirFiles(fixturePath('hostile'));

describe.skipIf(NATIVE_MISSING)(
  `validate agrees with native xmllint${NATIVE_MISSING ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let written: string;
    const cases: Array<{ label: string; path: string }> = [];
    const ours = new Map<string, IofValidationResult>();

    beforeAll(async () => {
      written = mkdtempSync(join(tmpdir(), 'parity-'));
      for (const path of [...EXAMPLES, ...REAL_IOF3])
        cases.push({ label: path.slice(path.lastIndexOf('/') + 1), path });
      for (const path of COURSE_EXAMPLES) {
        const name = `written-${path.slice(path.lastIndexOf('/') + 1)}`;
        const out = join(written, name);
        writeFileSync(out, writeCourseData(parseCourseData(readFileSync(path), path)));
        cases.push({ label: name, path: out });
      }
      // One call for everything: the batch path is the one under test.
      const results = await validate(
        cases.map((c) => ({ name: c.label, bytes: new Uint8Array(readFileSync(c.path)) })),
      );
      results.forEach((r) => ours.set(r.name, r));
    }, 60_000);

    afterAll(() => {
      if (written) rmSync(written, { recursive: true, force: true });
    });

    it('covers every example, every real IOF 3.0 export and the writer output of every course example', () => {
      expect(EXAMPLES.length).toBeGreaterThanOrEqual(20);
      expect(REAL_IOF3.length).toBeGreaterThanOrEqual(13);
      expect(COURSE_EXAMPLES.length).toBe(4);
      expect(ours.size).toBe(EXAMPLES.length + REAL_IOF3.length + COURSE_EXAMPLES.length);
    });

    it('gives xmllint`s verdict and first error line for every file', () => {
      const rows = cases.map(({ label, path }) => {
        const native = nativeVerdict(path);
        const result = ours.get(label)!;
        return {
          label,
          native: { valid: native.status === 0, line: native.firstErrorLine },
          ours: { valid: result.valid, line: result.errors[0]?.line },
        };
      });
      const disagreeing = rows.filter((r) => r.native.valid !== r.ours.valid || r.native.line !== r.ours.line);
      expect(disagreeing).toEqual([]);
      // The corpus has both kinds, so agreement means something.
      expect(rows.filter((r) => r.native.valid).length).toBeGreaterThan(20);
      expect(rows.filter((r) => !r.native.valid).map((r) => [r.label, r.native.line])).toEqual([
        ['liveresults_oe2010_ResultList_SKIO2016_tenths_cp1252.xml', 52],
        ['rg2_ResultList_empty_ClassResult_parseerror.xml', 9],
        ['sportorg_StartList.xml', 30],
      ]);
    });

    it('agrees on the hostile files it hands to libxml2 (the rest it refuses before, on purpose)', async () => {
      const results = await validate(
        HOSTILE.map((path) => ({ name: path, bytes: new Uint8Array(readFileSync(path)) })),
      );
      const checked = results.filter((r) => r.checked === 'xsd');
      expect(checked.length).toBeGreaterThan(20);
      const disagreeing = checked
        .map((r) => {
          const native = nativeVerdict(r.name);
          return {
            file: r.name.slice(r.name.lastIndexOf('/') + 1),
            native: { valid: native.status === 0, line: native.firstErrorLine },
            ours: { valid: r.valid, line: r.errors[0]?.line },
          };
        })
        .filter((row) => row.native.valid !== row.ours.valid || row.native.line !== row.ours.line);
      expect(disagreeing).toEqual([]);
    });
  },
);

describe.skipIf(NATIVE_MISSING)(
  `IOF 2.0.3 against the translated DTD agrees with native xmllint --dtdvalid${NATIVE_MISSING ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    const DTD = iofExamplePath('../IOFdata-2.0.3.dtd');
    let dir: string;
    const files: string[] = [];

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'parity-dtd-'));
      files.push(...dirFiles(realdataPath('iof2')), fixturePath('iof/CourseData_v203_classes_latin1.xml'));
      // Each rule of a DTD broken once, in a file that is valid as written.
      const valid = readFileSync(fixturePath('iof/CourseData_v203_classes_latin1.xml'), 'latin1');
      const mutations: Record<string, [string, string]> = {
        'no-version-attribute': ['<IOFVersion version="2.0.3"/>', '<IOFVersion/>'],
        'fixed-value': ['<IOFVersion version="2.0.3"/>', '<IOFVersion version="2.0.2"/>'],
        enumeration: ['unit="km"', 'unit="miles"'],
        'enumeration-spaces': ['unit="km"', 'unit=" km "'],
        'undeclared-attribute': ['<Scale>10000</Scale>', '<Scale foo="1">10000</Scale>'],
        'undeclared-element': ['<Scale>10000</Scale>', '<Scale>10000</Scale><Bogus/>'],
        'text-in-empty': ['<IOFVersion version="2.0.3"/>', '<IOFVersion version="2.0.3">x</IOFVersion>'],
        'element-in-text': ['<Scale>10000</Scale>', '<Scale>10000<b/></Scale>'],
        'text-in-element-content': ['<Map>', '<Map>hello'],
        'repeated-element': ['<Scale>10000</Scale>', '<Scale>10000</Scale><Scale>1</Scale>'],
        'missing-child': ['<ControlCode>101</ControlCode>', ''],
        'namespace-declaration': ['<CourseData>', '<CourseData xmlns:x="urn:x">'],
        'xml-lang': ['<CourseData>', '<CourseData xml:lang="sv">'],
        'cdata-comment-pi': ['<Scale>10000</Scale>', '<Scale><![CDATA[10000]]></Scale><!-- c --><?pi x?>'],
        'empty-text': ['<Scale>10000</Scale>', '<Scale/>'],
      };
      for (const [name, [from, to]] of Object.entries(mutations)) {
        const path = join(dir, `${name}.xml`);
        writeFileSync(path, Buffer.from(valid.replace(from, to), 'latin1'));
        files.push(path);
      }
    });

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('gives xmllint --dtdvalid`s verdict for every real 2.0.3 file and every broken rule', async () => {
      const results = await validate(
        files.map((path) => ({ name: path, bytes: new Uint8Array(readFileSync(path)) })),
        { dtdPath: DTD },
      );
      const rows = results.map((r) => {
        const native = spawnSync('xmllint', ['--nonet', '--noout', '--dtdvalid', DTD, r.name], { encoding: 'utf8' });
        const file = r.name.slice(r.name.lastIndexOf('/') + 1);
        return { file, native: native.status === 0, ours: r.valid, checked: r.checked };
      });
      expect(rows.filter((r) => r.checked !== 'dtd')).toEqual([]);
      expect(rows.filter((r) => r.native !== r.ours)).toEqual([]);
      expect(rows.filter((r) => r.native).map((r) => r.file)).toEqual([
        'splitsbrowserjava_winsplits_ResultList_v203_latin1.xml',
        'CourseData_v203_classes_latin1.xml',
        'no-version-attribute.xml',
        'cdata-comment-pi.xml',
        'empty-text.xml',
      ]);
    });
  },
);
