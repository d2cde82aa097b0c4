import { describe, expect, it } from 'vitest';
import { parseTrack } from '../../src/gps/track.js';
import { catchInputError, realdata, utf8 } from '../helpers/files.js';

const tcx = (trackpoints: string, extra = ''): Uint8Array =>
  utf8(`<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
  <Activities><Activity Sport="Running"><Id>2020-05-01T10:00:00Z</Id>
    <Lap StartTime="2020-05-01T10:00:00Z"><Track>${trackpoints}</Track></Lap>
  </Activity></Activities>${extra}
</TrainingCenterDatabase>`);

const trackpoint = (time: string, lat?: number, lng?: number, alt?: number): string =>
  `<Trackpoint><Time>${time}</Time>` +
  (lat === undefined
    ? ''
    : `<Position><LatitudeDegrees>${lat}</LatitudeDegrees><LongitudeDegrees>${lng}</LongitudeDegrees></Position>`) +
  (alt === undefined ? '' : `<AltitudeMeters>${alt}</AltitudeMeters>`) +
  '</Trackpoint>';

// Expected values below were read from the files with Python's xml.etree, not with this parser.
describe('parseTrack on real TCX files', () => {
  const garmin = realdata('tcx/rg2_ellenbrook_garminconnect.tcx');

  it('reads a Garmin Connect TCX, skipping the one trackpoint without a position', () => {
    const trackpoints = new TextDecoder().decode(garmin).match(/<Trackpoint>/g)?.length;
    expect(trackpoints).toBe(2474);
    const track = parseTrack(garmin, 'ellenbrook.tcx');
    expect(track.format).toBe('tcx');
    expect(track.creator).toBe('Garmin Forerunner 610');
    expect(track.points).toHaveLength(2473);
    expect(track.points[0]).toEqual({
      time: Date.UTC(2013, 7, 13, 18, 12, 59),
      lat: 51.762266429141164,
      lng: -0.25137411430478096,
      ele: 85,
    });
    expect(track.points.at(-1)).toEqual({
      time: Date.UTC(2013, 7, 13, 18, 54, 11),
      lat: 51.7622559517622,
      lng: -0.2512676641345024,
      ele: 82.80000305175781,
    });
  });

  it('reads a Forerunner 410 TCX with a single-quoted declaration and ext: prefixed extensions', () => {
    const track = parseTrack(realdata('tcx/tcxparser_forerunner410_run.tcx'));
    expect(track.creator).toBe('Forerunner 410 Software Version 2.20');
    expect(track.points).toHaveLength(383);
    expect(track.points[0]).toEqual({
      time: Date.UTC(2012, 11, 26, 21, 29, 53),
      lat: 35.951880198,
      lng: -79.0931872185,
      ele: 178.942626953,
    });
    expect(track.points.at(-1)).toEqual({
      time: Date.UTC(2012, 11, 26, 22, 3, 4),
      lat: 35.9519544616,
      lng: -79.0930143837,
      ele: 166.4453125,
    });
  });
});

describe('parseTrack on TCX edge cases', () => {
  it('skips trackpoints without a position and keeps those without altitude', () => {
    const track = parseTrack(
      tcx(
        trackpoint('2020-05-01T10:00:00Z') +
          trackpoint('2020-05-01T10:00:01Z', 59.5, 17.25, 12.5) +
          trackpoint('2020-05-01T10:00:02Z', 59.6, 17.5),
      ),
    );
    expect(track.points).toEqual([
      { time: Date.UTC(2020, 4, 1, 10, 0, 1), lat: 59.5, lng: 17.25, ele: 12.5 },
      { time: Date.UTC(2020, 4, 1, 10, 0, 2), lat: 59.6, lng: 17.5 },
    ]);
  });

  it('is not confused by prefixed namespaces on the root, the elements or the extensions', () => {
    const xml = `<?xml version='1.0' encoding='UTF-8'?>
<tc:TrainingCenterDatabase xmlns:tc="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
    xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
  <tc:Activities><tc:Activity Sport="Biking"><tc:Id>2020-05-01T10:00:00Z</tc:Id>
    <tc:Lap StartTime="2020-05-01T10:00:00Z"><tc:Track>
      <tc:Trackpoint><tc:Time>2020-05-01T10:00:00Z</tc:Time>
        <tc:Position><tc:LatitudeDegrees>1.25</tc:LatitudeDegrees><tc:LongitudeDegrees>2.5</tc:LongitudeDegrees></tc:Position>
        <tc:Extensions><ns3:TPX><ns3:Speed>1.0</ns3:Speed><ns3:Position>x</ns3:Position></ns3:TPX></tc:Extensions>
      </tc:Trackpoint>
    </tc:Track></tc:Lap>
    <tc:Creator><tc:Name>Edge 530</tc:Name></tc:Creator>
  </tc:Activity></tc:Activities>
</tc:TrainingCenterDatabase>`;
    expect(parseTrack(utf8(xml))).toEqual({
      format: 'tcx',
      creator: 'Edge 530',
      points: [{ time: Date.UTC(2020, 4, 1, 10), lat: 1.25, lng: 2.5 }],
    });
  });

  it('joins laps and activities in file order', () => {
    const lap = (s: number): string =>
      `<Lap StartTime="x"><Track>${trackpoint(`2020-05-01T10:00:0${s}Z`, 1, s)}</Track></Lap>`;
    const xml = `<TrainingCenterDatabase><Activities>
      <Activity><Id>a</Id>${lap(1)}${lap(2)}</Activity><Activity><Id>b</Id>${lap(3)}</Activity>
    </Activities></TrainingCenterDatabase>`;
    expect(parseTrack(utf8(xml)).points.map((p) => p.lng)).toEqual([1, 2, 3]);
  });

  it('falls back to the Author name when the activity names no device', () => {
    const track = parseTrack(
      tcx(trackpoint('2020-05-01T10:00:00Z', 1, 2), '<Author><Name>Garmin Connect API</Name></Author>'),
    );
    expect(track.creator).toBe('Garmin Connect API');
  });

  it('accepts whitespace before the XML declaration, as some exporters write it', () => {
    const bytes = tcx(trackpoint('2020-05-01T10:00:00Z', 1, 2));
    expect(parseTrack(new Uint8Array([0x0a, 0x20, 0x20, ...bytes])).points).toHaveLength(1);
  });

  it('refuses an activity recorded without GPS', () => {
    const error = catchInputError(() =>
      parseTrack(tcx(trackpoint('2020-05-01T10:00:00Z') + trackpoint('2020-05-01T10:00:01Z')), 'indoor.tcx'),
    );
    expect(error.reason).toBe('no_track_points');
    expect(error.message).toMatch(/^indoor\.tcx: .*2 trackpoints have no position/);
  });
});
