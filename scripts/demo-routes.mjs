// Writes fixtures/demo/routes/: the GPS routes `livelox-bridge demo import` imports, each a runner of the demo event
// (fixtures/demo/event.json) running their class's course, as a watch would record it (a point every few seconds,
// a little off the straight line). Run after `npm run build` when the event's courses change:
//   node scripts/demo-routes.mjs
// The files are committed; test/cli/demo-cli.test.ts checks that each still imports into its runner's class.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const dist = (path) => import(join(root, 'dist', path));
const { loadDatasetFile } = await dist('simulator/dataset/file.js');
const { writeGpx, writeTcx } = await dist('gps/write.js');
const { writeFit } = await dist('gps/fit-write.js');
const { destination, distanceM } = await dist('geo/distance.js');

const RUNNERS = [
  { file: 'erik-holm.gpx', className: 'H21', start: '08:12:00', speed: 3.4, every: 5 },
  { file: 'johan-strand.fit', className: 'H21', start: '08:40:00', speed: 3.1, every: 1 },
  { file: 'sara-berg.tcx', className: 'D21', start: '08:31:00', speed: 3.0, every: 5 },
  { file: 'karin-ek.fit', className: 'D50', start: '09:02:00', speed: 2.6, every: 1 },
  { file: 'olle-nilsson.gpx', className: 'Inskolning', start: '10:15:00', speed: 1.8, every: 5 },
];

const { events } = await loadDatasetFile(join(root, 'fixtures/demo/event.json'));
const event = events[0];
const day = new Date(event.startMs).toISOString().slice(0, 10);
const at = new Map(event.courses.controls.map((c) => [c.id, c.position]));
const out = join(root, 'fixtures/demo/routes');
mkdirSync(out, { recursive: true });

for (const [n, runner] of RUNNERS.entries()) {
  const cls = event.classes.find((c) => c.name === runner.className);
  const { courseName } = event.courses.classAssignments.find((a) => a.classId === String(cls.id));
  const course = event.courses.courses.find((c) => c.name === courseName);
  const stops = course.controls.map((cc) => at.get(cc.controlId));
  const points = [];
  let t = Date.parse(`${day}T${runner.start}Z`);
  for (let i = 0; i < stops.length - 1; i++) {
    const [a, b] = [stops[i], stops[i + 1]];
    const steps = Math.max(1, Math.round(distanceM(a, b) / (runner.speed * runner.every)));
    for (let s = 0; s < steps; s++) {
      const on = { lat: a.lat + ((b.lat - a.lat) * s) / steps, lng: a.lng + ((b.lng - a.lng) * s) / steps };
      // Off the straight line by up to 12 m, as a runner picks a route and a watch wanders.
      const off = destination(on, (n * 70 + i * 40 + s * 15) % 360, 12 * Math.abs(Math.sin(s / 3 + n)));
      points.push({ time: t, lat: round(off.lat), lng: round(off.lng), ele: 30 + Math.round(10 * Math.sin(t / 9e5)) });
      t += runner.every * 1000;
    }
  }
  const last = stops[stops.length - 1];
  points.push({ time: t, lat: last.lat, lng: last.lng, ele: 30 });
  const name = runner.file.replace(/\.\w+$/, '');
  const bytes = runner.file.endsWith('.gpx')
    ? writeGpx(points, { creator: 'Garmin Connect', name })
    : runner.file.endsWith('.tcx')
      ? writeTcx(points, { creator: 'Polar Flow' })
      : writeFit(points);
  writeFileSync(join(out, runner.file), bytes);
  console.log(`${runner.file}: ${points.length} points, ${runner.className} on ${courseName}`);
}

function round(degrees) {
  return Math.round(degrees * 1e6) / 1e6;
}
