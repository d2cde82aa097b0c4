/** `livelox-bridge/iof` as a library user writes it, through the published declarations (see root.test-d.ts). */
import { describe, expectTypeOf, it } from 'vitest';
import {
  compareCourses,
  findIofSchema,
  getProjection,
  inspectIof,
  lintCourseData,
  parseCourseData,
  projectCourseData,
  readEventAndClasses,
  validate,
  writeCourseData,
} from 'livelox-bridge/iof';
import type {
  CourseComparison,
  CourseData,
  GeoreferenceFit,
  InspectSummary,
  IofEventClasses,
  IofSchemaLookup,
  IofValidationResult,
  LintIssue,
  ProjectedPoint,
} from 'livelox-bridge/iof';
// @ts-expect-error: the batch form of validate under a second name; validate(documents) does it
import { validateIofXml as _validateIofXml } from 'livelox-bridge/iof';

declare const bytes: Uint8Array;

describe('livelox-bridge/iof', () => {
  it('validates one document or a batch, with a result per document', async () => {
    expectTypeOf(await validate(bytes)).toEqualTypeOf<IofValidationResult>();
    expectTypeOf(await validate([{ name: 'a.xml', bytes }])).toEqualTypeOf<IofValidationResult[]>();
    expectTypeOf(await validate(bytes, { schemaPath: '/opt/iof/IOF.xsd' })).toEqualTypeOf<IofValidationResult>();
    expectTypeOf(await validate(bytes, { env: { IOF_XSD: '/opt/iof/IOF.xsd' } })).toEqualTypeOf<IofValidationResult>();
    expectTypeOf(findIofSchema({ kind: 'dtd', env: {} })).toEqualTypeOf<IofSchemaLookup>();
    // @ts-expect-error: documents are bytes (any encoding), never decoded text
    await validate('<CourseData/>');
  });

  it('reads, lints, inspects, projects, compares and writes course data', async () => {
    const data = parseCourseData(bytes, 'courses.xml');
    expectTypeOf(data).toEqualTypeOf<CourseData>();
    expectTypeOf(lintCourseData(data)).toEqualTypeOf<LintIssue[]>();
    expectTypeOf(await inspectIof(bytes, 'courses.xml')).toEqualTypeOf<InspectSummary>();
    expectTypeOf(await readEventAndClasses(bytes)).toEqualTypeOf<IofEventClasses>();
    expectTypeOf(projectCourseData(data, 3006)).toEqualTypeOf<CourseData>();
    expectTypeOf(getProjection('EPSG:3006').forward({ lat: 59.3, lng: 18.1 })).toEqualTypeOf<ProjectedPoint>();
    const race = data.races[0]!;
    expectTypeOf(compareCourses(race, race, { toleranceM: 10 })).toEqualTypeOf<CourseComparison>();
    // The fit is there only when enough controls were measured: a user has to look before reading it.
    expectTypeOf(compareCourses(race, race).georeference).toEqualTypeOf<GeoreferenceFit | undefined>();
    expectTypeOf(writeCourseData(data)).toBeString();
    // @ts-expect-error: parse the file first; the writer takes course data
    writeCourseData(bytes);
  });
});
