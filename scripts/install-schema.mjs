#!/usr/bin/env node
// Places the IOF 3.0 schema at schemas/IOF.xsd (and the 2.0.3 DTD beside it). The schema belongs to the IOF and is never committed: it comes from
// the path in IOF_XSD, or from ../shared/iof/IOF.xsd beside this checkout. Without either the install goes on and says
// how to get it (`schema fetch`); an IOF_XSD naming nothing, or a file that is not the schema, stops it.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'schemas', 'IOF.xsd');
const candidates = [];
if (process.env.IOF_XSD) {
  const path = resolve(process.env.IOF_XSD);
  // An explicit choice that does not exist is a mistake to report, not a reason to quietly use another schema.
  if (!existsSync(path)) {
    console.error(
      `livelox-bridge install: IOF_XSD names ${path}, which does not exist. Fix the path or unset IOF_XSD.`,
    );
    process.exit(1);
  }
  candidates.push({ path, from: 'the IOF_XSD environment variable' });
}
candidates.push({ path: resolve(root, '..', 'shared', 'iof', 'IOF.xsd'), from: '../shared/iof/IOF.xsd' });

const found = candidates.find((c) => existsSync(c.path));
if (!found) {
  if (existsSync(target)) {
    console.log(`IOF schema: keeping ${target}`);
  } else {
    // Not a failure: the built CLI can fetch the IOF's file itself, and validation finds it in the user's cache.
    console.log(
      [
        'IOF schema: not placed in schemas/ (no ../shared/iof/IOF.xsd beside this checkout, and IOF_XSD is not set).',
        '  Validation finds it once you run `node dist/cli/main.js schema fetch` (into your cache), set IOF_XSD when',
        '  you run a command, or pass --schema FILE. The tests read ../shared/iof/IOF.xsd and need it.',
      ].join('\n'),
    );
  }
}
// A regular file of a schema's size only (IOF.xsd is about 250 KB): a named pipe would hang the install, a device or a
// huge file would fill memory. The same rule as the library's reader (src/core/files.ts), which this script runs
// before it is built.
const MAX_SCHEMA_BYTES = 16 * 1024 * 1024;

/**
 * Copies `from` to `to` atomically (a temporary file renamed over it), readable by all and writable by the owner
 * whatever the source's mode: ../shared is read-only, and a copy keeping 0444 would stop a later install as another
 * user from replacing it.
 */
function copyAtomically(from, to) {
  const temporary = `${to}.${process.pid}.tmp`;
  writeFileSync(temporary, readFileSync(from), { mode: 0o644 });
  renameSync(temporary, to);
}
function checkSchemaFile(path, from, what) {
  const info = statSync(path);
  if (info.isFile() && info.size <= MAX_SCHEMA_BYTES) return;
  const is = info.isFile() ? `larger than ${MAX_SCHEMA_BYTES / 1048576} MiB` : 'not a regular file';
  console.error(`livelox-bridge install: ${path} (from ${from}) is ${is}, so it is not ${what}.`);
  process.exit(1);
}
if (found) {
  checkSchemaFile(found.path, found.from, 'the IOF 3.0 schema');
  const text = readFileSync(found.path, 'utf8');
  if (!text.includes('http://www.orienteering.org/datastandard/3.0')) {
    console.error(
      `livelox-bridge install: ${found.path} (from ${found.from}) is not the IOF 3.0 schema: its target namespace is missing.`,
    );
    process.exit(1);
  }
  mkdirSync(dirname(target), { recursive: true });
  copyAtomically(found.path, target);
  console.log(`IOF schema: ${target} (from ${found.from})`);
}

// The IOF 2.0.3 DTD is optional: with it, 2.0.3 files are checked too (translated to a schema at run time); without
// it they are reported as not checked. It comes from IOF_DTD or beside the schema in ../shared.
const dtdTarget = join(root, 'schemas', 'IOFdata-2.0.3.dtd');
const dtdCandidates = [
  ...(process.env.IOF_DTD ? [resolve(process.env.IOF_DTD)] : []),
  resolve(root, '..', 'shared', 'iof', 'IOFdata-2.0.3.dtd'),
];
const dtd = dtdCandidates.find((p) => existsSync(p));
if (process.env.IOF_DTD && dtd !== resolve(process.env.IOF_DTD)) {
  console.error(`livelox-bridge install: IOF_DTD names ${resolve(process.env.IOF_DTD)}, which does not exist.`);
  process.exit(1);
}
if (dtd) {
  checkSchemaFile(dtd, dtd === dtdCandidates[0] && process.env.IOF_DTD ? 'IOF_DTD' : '../shared', 'the IOF 2.0.3 DTD');
  copyAtomically(dtd, dtdTarget);
  console.log(`IOF 2.0.3 DTD: ${dtdTarget} (from ${dtd})`);
} else if (!existsSync(dtdTarget)) {
  console.log('IOF 2.0.3 DTD: not found (set IOF_DTD to check IOF 2.0.3 files; they are reported as not checked).');
}
