/** Test inputs read from disk, and catching the typed error a call throws, for the unit tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError, ValidationError } from '../../src/errors.js';

// The shared corpus sits beside the checkout, like the schema the install step copies from there; it is never copied
// into the repository.
const SHARED = new URL('../../../shared/', import.meta.url);
const FIXTURES = new URL('../../fixtures/', import.meta.url);

/** Absolute path of a real export in `../shared/realdata/`, such as `gpx/rg2_invalid.gpx`. */
export function realdataPath(path: string): string {
  return fileURLToPath(new URL(`realdata/${path}`, SHARED));
}

/** Absolute path of an IOF XML 3.0 example in `../shared/iof/examples/`, such as `CourseData_Individual_Step2.xml`. */
export function iofExamplePath(name: string): string {
  return fileURLToPath(new URL(`iof/examples/${name}`, SHARED));
}

/** Absolute path of the IOF's own grammar files in `../shared/iof/`: `IOF.xsd` or `IOFdata-2.0.3.dtd`. */
export function iofGrammarPath(name: 'IOF.xsd' | 'IOFdata-2.0.3.dtd'): string {
  return fileURLToPath(new URL(`iof/${name}`, SHARED));
}

/** Absolute path of a file in this repository's `fixtures/`, such as `iof/CourseData_cp1252_smart_quotes.xml`. */
export function fixturePath(path: string): string {
  return fileURLToPath(new URL(path, FIXTURES));
}

/** The bytes of a file as a plain `Uint8Array`, not a `Buffer`: library callers need not have Node's type. */
function bytesOf(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}

/** The bytes of a real export in `../shared/realdata/`. */
export function realdata(path: string): Uint8Array {
  return bytesOf(realdataPath(path));
}

/** The bytes of an IOF XML 3.0 example in `../shared/iof/examples/`. */
export function iofExample(name: string): Uint8Array {
  return bytesOf(iofExamplePath(name));
}

/** The bytes of a file in this repository's `fixtures/`. */
export function fixture(path: string): Uint8Array {
  return bytesOf(fixturePath(path));
}

/** Text as UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Runs `fn` and returns the `InputError` it throws; anything else thrown is rethrown, nothing thrown fails the test. */
export function catchInputError(fn: () => unknown): InputError {
  return catchError(InputError, fn);
}

/** Runs `fn` and returns the `ValidationError` it throws; anything else thrown is rethrown, nothing thrown fails. */
export function catchValidationError(fn: () => unknown): ValidationError {
  return catchError(ValidationError, fn);
}

function catchError<E extends Error>(type: abstract new (...args: never[]) => E, fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name} to be thrown, but nothing was`);
}

/** Every IOF 3.0 CourseData file the tests read: the IOF examples, real exports, and our cp1252 fixture. */
export const IOF3_COURSE_FILES: readonly string[] = [
  iofExamplePath('CourseData_Individual_Step2.xml'),
  iofExamplePath('CourseData_Individual_Step4.xml'),
  iofExamplePath('CourseData_Relay_Step2.xml'),
  iofExamplePath('CourseData_Relay_Step4.xml'),
  realdataPath('iof3/mapper_CourseData_export2.xml'),
  realdataPath('iof3/rg2_ellenbrook_CourseData_OCAD11.xml'),
  realdataPath('iof3/rg2_heartwood_CourseData_Condes9_georef.xml'),
  realdataPath('iof3/rg2_pwllddu_CourseData_PurplePen353.xml'),
  fixturePath('iof/CourseData_cp1252_smart_quotes.xml'),
];
