/** Reading and writing GPS route files (GPX, TCX, FIT). Pure code: bytes in, values out. */
export type { GpsFormat, Track, TrackPoint } from './types.js';
export { parseTrack } from './track.js';
export { sniffGpsFormat } from './sniff.js';
export { writeGpx, writeTcx } from './write.js';
export { writeFit } from './fit-write.js';
