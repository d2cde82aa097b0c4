/** `check-courses --html FILE` and `--svg DIR`: the check drawn, each file written atomically. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckedCourses } from '../../../jobs/check-courses.js';
import { courseCheckPictures } from '../../../jobs/course-check-pictures.js';
import { courseCheckPage } from '../../../pictures/course-check-page.js';
import { drawCourseMap } from '../../../pictures/course-map.js';
import { uniqueFileNames } from '../../../pictures/file-names.js';
import { writeFileAtomic } from '../../output-files.js';
import { errnoCode } from '../../../core/files.js';

export interface PictureOptions {
  html: string | undefined;
  svg: string | undefined;
  /** The text report, without colours. */
  report: string;
  organiserProjection: number | string | undefined;
  verdict: { word: string; text: string };
  facts: Array<[string, string]>;
  counts: Array<{ label: string; count: number }>;
}

/** The files written: the page, and the drawings (in the courses' order). */
export interface WrittenPictures {
  html?: string;
  svg?: string[];
}

export async function writePictures(checked: CheckedCourses, options: PictureOptions): Promise<WrittenPictures> {
  const { result, comparison } = checked;
  const pictures = courseCheckPictures({
    organiser: checked.organiserRace,
    service: checked.serviceRace,
    comparison,
    toleranceM: result.tolerances.controlM,
    ...(result.service.projectionEpsgCode === undefined
      ? {}
      : { serviceProjection: result.service.projectionEpsgCode }),
    ...(options.organiserProjection === undefined ? {} : { organiserProjection: options.organiserProjection }),
  });
  const written: WrittenPictures = {};
  if (options.html !== undefined) {
    const fit = comparison.georeference;
    const page = courseCheckPage({
      title: `Courses of event ${result.eventId} against ${result.organiser.source}`,
      verdict: result.verdict,
      verdictWord: options.verdict.word,
      verdictText: options.verdict.text,
      ...(fit?.explains ? { georeference: fit.message } : {}),
      facts: options.facts,
      counts: options.counts,
      courses: pictures.courses,
      classes: pictures.classes,
      report: options.report,
    });
    await writeFileAtomic(options.html, Buffer.from(page, 'utf8'));
    written.html = options.html;
  }
  if (options.svg !== undefined) {
    const dir = options.svg;
    try {
      await mkdir(dir, { recursive: true });
    } catch (err) {
      throw new Error(`cannot create ${dir}: ${errnoCode(err) ?? String(err)}`, { cause: err });
    }
    const names = uniqueFileNames(
      pictures.courses.map((c) => c.name),
      '.svg',
    );
    written.svg = [];
    for (const [i, course] of pictures.courses.entries()) {
      const file = join(dir, names[i]!);
      // Ids named after the file (unique in the folder), so that drawings inlined into one page never share an id.
      const idPrefix = `course-${names[i]!.slice(0, -'.svg'.length)}`;
      const svg = `<?xml version="1.0" encoding="UTF-8"?>\n${drawCourseMap(course, { idPrefix })}\n`;
      await writeFileAtomic(file, Buffer.from(svg, 'utf8'));
      written.svg.push(file);
    }
  }
  return written;
}
