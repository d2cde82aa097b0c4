/**
 * The importable-event object and its files, from what publishing read: the course file (3.0 bytes), the placed map
 * and the course prints. Names are the files' own, made unique; the object names exactly what the upload carries.
 */
import { basename, extname } from 'node:path';
import type { ImportableEventInput } from '../../resources/importable-event-schemas.js';
import type { UploadFile } from '../../resources/importable-events.js';
import type { ImportableMapGeometry, PlacedMap } from '../../maps/place-map.js';
import type { PublishCourseFile } from './course-file.js';

export interface PublishFiles {
  object: ImportableEventInput;
  files: UploadFile[];
}

/** The key a course file is published under: its event (id, else name) and race. */
export function publishKey(course: PublishCourseFile): string {
  const event = course.data.event;
  return JSON.stringify([event.id ?? '', event.name, course.race.raceNumber ?? course.raceIndex]);
}

/** The object and the files: the course file first, then the map image, then the course prints. */
export function buildPublishFiles(parts: {
  name: string;
  courseFile: { name: string; bytes: Uint8Array };
  map: { path: string; bytes: Uint8Array; placed: PlacedMap; name: string };
  prints: ReadonlyArray<{ name: string; bytes: Uint8Array }>;
}): PublishFiles {
  const taken = new Set<string>();
  const courseName = unique(xmlName(parts.courseFile.name), taken);
  const mapName = unique(basename(parts.map.path), taken);
  const prints = parts.prints.map((p) => ({ name: unique(basename(p.name), taken), bytes: p.bytes }));
  const files = [
    { name: courseName, bytes: parts.courseFile.bytes },
    { name: mapName, bytes: parts.map.bytes },
    ...prints,
  ];
  const object: ImportableEventInput = {
    name: parts.name,
    maps: [mapEntry(mapName, parts.map.name, parts.map.placed.entry)],
    courseDataFileNames: [courseName],
    ...(prints.length > 0 ? { courseImageFileNames: prints.map((p) => p.name) } : {}),
  };
  return { object, files };
}

/**
 * The `maps[]` entry, field by field from the map's geometry: a field renamed on either side (the maps module's
 * `ImportableMapGeometry`, the wire schema's map) fails to compile here instead of being sent under its old name.
 */
function mapEntry(fileName: string, name: string, g: ImportableMapGeometry): ImportableEventInput['maps'][number] {
  return {
    fileName,
    name,
    mapScale: g.mapScale,
    bottomLeftCornerPosition: g.bottomLeftCornerPosition,
    topRightCornerPosition: g.topRightCornerPosition,
    georeference: {
      coordinateMapping: {
        positions: g.georeference.coordinateMapping.positions,
        imagePositions: g.georeference.coordinateMapping.imagePositions,
      },
    },
  };
}

/** The course file's name as uploaded: its own, with `.xml` (the service reads it as IOF XML). */
function xmlName(name: string): string {
  const base = basename(name) || 'CourseData.xml';
  return extname(base).toLowerCase() === '.xml' ? base : `${base}.xml`;
}

/** `name`, or `name-2.ext`, ... when taken: the object names each file once. */
function unique(name: string, taken: Set<string>): string {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${stem}-${i}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
