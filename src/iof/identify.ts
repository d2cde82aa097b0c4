/**
 * Telling what an IOF XML file is from its first bytes: version, message type, encoding. Route files, web pages and
 * JSON handed over by mistake get a clear "not IOF" naming what they are, before anything reads the whole file.
 */
import { InputError } from '../errors.js';
import type { IofIdentity, IofMessageType, IofVersion } from './model.js';
import { decodeXmlHead, detectXmlEncoding, unsupportedEncodingError } from '../xml/decode.js';
import { XmlTokenizer, namespaceDeclarations, parseAttributes } from '../xml/tokenizer.js';

/** The hint of the refusal of a DOCTYPE declaring entities, for every reader of IOF XML. */
export const IOF_ENTITY_DECLARATION_HINT = 'IOF XML never needs them; remove the DOCTYPE internal subset.';

/** The IOF 3.0 namespace. */
export const IOF3_NAMESPACE = 'http://www.orienteering.org/datastandard/3.0';

/** Bytes looked at: room for a declaration, comments, a DOCTYPE, the root start tag and its first children. */
const IDENTIFY_WINDOW_BYTES = 64 * 1024;
/** Elements after the root looked at for a version cue when neither the root nor a DOCTYPE gives one. */
const MAX_HINT_ELEMENTS = 64;

const ROOTS_3: Readonly<Record<string, IofMessageType>> = {
  CourseData: 'CourseData',
  ClassList: 'ClassList',
  EntryList: 'EntryList',
  StartList: 'StartList',
  ResultList: 'ResultList',
  EventList: 'EventList',
  CompetitorList: 'CompetitorList',
  OrganisationList: 'OrganisationList',
  ServiceRequestList: 'ServiceRequestList',
  ControlCardList: 'ControlCardList',
};

/** IOF 2.0.3 roots (IOFdata.dtd), by the message type they are. */
const ROOTS_2: Readonly<Record<string, IofMessageType>> = {
  CourseData: 'CourseData',
  ClassData: 'ClassList',
  EntryList: 'EntryList',
  StartList: 'StartList',
  ResultList: 'ResultList',
  EventList: 'EventList',
  CompetitorList: 'CompetitorList',
  OrganisationList: 'OrganisationList',
  ClubList: 'OrganisationList',
  ServiceRequestList: 'ServiceRequestList',
  PersonList: 'PersonList',
  RankList: 'RankList',
  BadgeList: 'BadgeList',
  PressList: 'PressList',
  TransactionList: 'TransactionList',
  CountryList: 'CountryList',
};

/** Elements only IOF 2.0.3 has: any of them in a file without a version says 2.0.3. */
const ONLY_2 = new Set([
  'IOFVersion',
  'EventId',
  'ClassId',
  'ClassShortName',
  'PersonName',
  'PersonId',
  'ClubId',
  'ClubEntry',
  'EntryClass',
  'CompetitorStatus',
  'StartPoint',
  'FinishPoint',
  'ControlCode',
  'CourseName',
  'CourseVariation',
  'EventClassificationId',
  'ModifyDate',
  'CCardId',
  'StartDate',
]);

/** Elements only IOF 3.0 has (2.0.3 has no `Id` at all: its ids are `ClassId`, `PersonId`, ...). */
const ONLY_3 = new Set(['Id', 'RaceCourseData', 'PersonEntry', 'TeamEntry', 'ClassCourseAssignment', 'Leg']);

/** What non-IOF roots are, for a message that helps. */
const OTHER_ROOTS: Readonly<Record<string, string>> = {
  gpx: 'a GPX route file',
  TrainingCenterDatabase: 'a TCX route file',
  kml: 'a KML file',
  html: 'an HTML page',
  HTML: 'an HTML page',
  svg: 'an SVG image',
  rss: 'an RSS feed',
  feed: 'an Atom feed',
  Envelope: 'a SOAP message',
};

/** The version a declared version string means; anything but 3.x and 2.x is refused. */
export function versionFromDeclared(declared: string, source: string): IofVersion {
  const v = declared.trim();
  if (/^3(?:\.\d+)*$/.test(v)) return '3.0';
  if (/^2(?:\.\d+)*$/.test(v)) return '2.0.3';
  throw new InputError(
    source,
    'unsupported_version',
    `IOF version "${declared}" is not supported (3.0 and 2.0.3 are).`,
  );
}

/** What the root element says about a document. */
export interface IofRoot {
  messageType: IofMessageType;
  /** Whether the root is in the IOF 3.0 namespace. */
  namespace: boolean;
  /** The version, when the root, its namespace, the DOCTYPE or the root name alone tell it. */
  version: IofVersion | undefined;
}

/**
 * Judges a document's root element: an IOF message, which one, and the version when it can be told yet (from
 * `iofVersion`, the IOF 3.0 namespace, an IOF DOCTYPE, or a root name only one version has). Throws `InputError`
 * `not_iof` for any other root, `unsupported_version` for a version other than 3.0 and 2.0.3.
 */
export function judgeIofRoot(
  name: string,
  qualified: string,
  rawAttributes: string,
  doctype: { name: string; systemId: string | undefined } | undefined,
  source: string,
): IofRoot {
  const colon = qualified.indexOf(':');
  const prefix = colon < 0 ? '' : qualified.slice(0, colon);
  const uri = namespaceDeclarations(rawAttributes)[prefix];
  const namespace = uri === IOF3_NAMESPACE;
  const type3 = ROOTS_3[name];
  const type2 = ROOTS_2[name];
  const messageType = type3 ?? type2;
  if (messageType === undefined || (uri !== undefined && uri !== '' && !namespace)) {
    const what = OTHER_ROOTS[name];
    const inNamespace = messageType !== undefined ? ` in the namespace ${uri}` : '';
    throw new InputError(
      source,
      'not_iof',
      `not an IOF XML file: the root element is <${qualified}>${inNamespace}${what ? `, ${what}` : ''}.`,
      {
        hint: 'IOF XML files have a root such as ResultList, StartList, EntryList, ClassList or CourseData; export one from the event or course-setting software.',
      },
    );
  }
  const declared = parseAttributes(rawAttributes)['iofVersion'];
  let version: IofVersion | undefined;
  if (declared !== undefined && declared.trim() !== '') version = versionFromDeclared(declared, source);
  else if (namespace) version = '3.0';
  else if (doctype !== undefined && (doctype.name === name || /iofdata/i.test(doctype.systemId ?? '')))
    version = '2.0.3';
  else if (type3 === undefined) version = '2.0.3';
  else if (type2 === undefined) version = '3.0';
  return { messageType, namespace, version };
}

/**
 * The version an element inside the root tells, if any: `IOFVersion` says it outright, and some element names exist in
 * one version only. `undefined` when the element says nothing.
 */
export function versionFromElement(name: string, rawAttributes: string, source: string): IofVersion | undefined {
  if (name === 'IOFVersion') {
    const declared = parseAttributes(rawAttributes)['version'];
    return declared === undefined || declared.trim() === '' ? '2.0.3' : versionFromDeclared(declared, source);
  }
  if (ONLY_2.has(name)) return '2.0.3';
  if (ONLY_3.has(name)) return '3.0';
  return undefined;
}

/** What bytes that do not start with markup look like. */
function describeNonXml(text: string, bytes: Uint8Array): string {
  const start = text.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) return 'it holds JSON, not XML';
  const sample = bytes.subarray(0, 512);
  let control = 0;
  for (const b of sample) if (b === 0 || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d)) control++;
  if (control > 0) return 'it holds binary data, not XML';
  return 'it holds plain text, not XML';
}

/** A FIT activity file: its header names `.FIT` at bytes 8-11. */
function isFit(bytes: Uint8Array): boolean {
  return (
    bytes.byteLength >= 12 &&
    (bytes[0] === 12 || bytes[0] === 14) &&
    bytes[8] === 0x2e &&
    bytes[9] === 0x46 &&
    bytes[10] === 0x49 &&
    bytes[11] === 0x54
  );
}

/**
 * Refuses, as `not_iof`, bytes that cannot be XML at all: a FIT file, JSON, binary data, plain text. `head` is the start
 * of the file (a kilobyte is plenty). Blank input passes: reading it reports it as empty.
 */
export function assertMayBeXml(head: Uint8Array, source: string): void {
  if (isFit(head)) {
    throw new InputError(source, 'not_iof', 'not an IOF XML file: it is a FIT activity file (binary).', {
      hint: 'Route files are imported as routes, not as event data.',
    });
  }
  const text = decodeXmlHead(head, 1024);
  const first = text.search(/[^ \t\r\n]/);
  if (first >= 0 && text.charAt(first) !== '<') {
    throw new InputError(source, 'not_iof', `not an IOF XML file: ${describeNonXml(text, head)}.`);
  }
}

/**
 * Identifies an IOF XML document from its first 64 KiB: IOF version, message type, encoding, byte order mark, and
 * whether the root is in the IOF 3.0 namespace. The version comes from the root's `iofVersion`, a 2.0.3 `IOFVersion`
 * element or DOCTYPE, the namespace, or failing those from element names only one version has (3.0 when nothing tells).
 * Whitespace before the XML declaration is tolerated here (some exporters write it); reading the file will refuse it.
 *
 * Throws `InputError` with reason `empty`, `not_iof` (naming what the file is instead: a GPX or TCX route, an HTML
 * page, JSON, binary data), `not_well_formed` (with line and column) when the beginning itself is broken,
 * `unsupported_encoding`, `unsupported_version` or `entity_declaration`. The rest of the document is not checked.
 */
export function identifyIof(bytes: Uint8Array, source = 'input'): IofIdentity {
  if (bytes.byteLength === 0) throw new InputError(source, 'empty', 'the file is empty (0 bytes).');
  assertMayBeXml(bytes, source);
  const detected = detectXmlEncoding(bytes);
  if (detected.unsupported !== undefined) throw unsupportedEncodingError(source, detected.unsupported);
  const whole = bytes.byteLength <= IDENTIFY_WINDOW_BYTES;
  const text = decodeXmlHead(bytes, IDENTIFY_WINDOW_BYTES);
  const first = text.search(/[^ \t\r\n]/);
  if (first < 0) {
    if (whole) throw new InputError(source, 'empty', 'the file holds nothing but whitespace.');
    throw new InputError(source, 'not_iof', 'not an IOF XML file: its first 64 KiB are blank.');
  }
  if (text.charAt(first) !== '<') {
    throw new InputError(source, 'not_iof', `not an IOF XML file: ${describeNonXml(text, bytes)}.`);
  }

  let doctype: { name: string; systemId: string | undefined } | undefined;
  let root: IofRoot | undefined;
  let version: IofVersion | undefined;
  let seen = 0;
  const tokenizer: XmlTokenizer = new XmlTokenizer(
    {
      doctype: (name, systemId) => {
        doctype = { name, systemId };
      },
      startElement: (name, attributes, qualified) => {
        if (root === undefined) {
          root = judgeIofRoot(name, qualified, attributes, doctype, source);
          version = root.version;
        } else {
          version = versionFromElement(name, attributes, source);
          seen++;
        }
        if (version !== undefined || seen >= MAX_HINT_ELEMENTS) tokenizer.stop();
      },
      endElement: () => {
        if (tokenizer.rootClosed) tokenizer.stop();
      },
      text: () => undefined,
    },
    source,
    IOF_ENTITY_DECLARATION_HINT,
    // Whitespace before the declaration is tolerated (see above); lines and columns still count from the file's start.
    { allowSpaceBeforeDeclaration: true },
  );
  tokenizer.write(text);
  if (root === undefined) {
    if (whole) tokenizer.end();
    throw new InputError(source, 'not_iof', 'not an IOF XML file: no root element in its first 64 KiB.');
  }
  return {
    version: version ?? '3.0',
    messageType: root.messageType,
    encoding: detected.encoding,
    bom: detected.bom,
    namespace: root.namespace,
  };
}
