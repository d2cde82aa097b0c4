/**
 * What a batch is checked against: IOF.xsd as it is, or the IOF 2.0.3 DTD translated into an XML Schema. The
 * WebAssembly xmllint is built without DTD validation (no `--valid`, no `--dtdvalid`), so `dtdToXsd` writes a schema
 * that accepts the same documents; its verdicts agree with native `xmllint --dtdvalid` (see the parity test).
 */
import { readInputFile } from '../../core/files.js';
import { decodeXml } from '../../xml/decode.js';

/** Batches never mix grammars: one xmllint call compiles one schema. */
export interface Grammar {
  kind: 'xsd' | 'dtd';
  path: string;
}

/** Largest grammar file read: IOF.xsd is about 250 KB, the 2.0.3 DTD less; a file far larger is something else. */
export const MAX_GRAMMAR_BYTES = 16 * 1024 * 1024;

/** The grammar file as xmllint is handed it: IOF.xsd as it is, the IOF 2.0.3 DTD translated to a schema. */
export async function loadGrammar(grammar: Grammar): Promise<{ fileName: string; bytes: Uint8Array }> {
  const bytes = await readInputFile(grammar.path, { what: 'the schema', maxBytes: MAX_GRAMMAR_BYTES });
  if (grammar.kind === 'xsd') return { fileName: 'IOF.xsd', bytes };
  const xsd = dtdToXsd(decodeXml(bytes, grammar.path).text);
  return { fileName: 'IOFdata-2.0.3.xsd', bytes: new TextEncoder().encode(xsd) };
}

const XSD_BUILTIN: Readonly<Record<string, string>> = {
  CDATA: 'xs:string',
  ID: 'xs:ID',
  IDREF: 'xs:IDREF',
  IDREFS: 'xs:IDREFS',
  NMTOKEN: 'xs:NMTOKEN',
  NMTOKENS: 'xs:NMTOKENS',
};

/**
 * Translates a DTD into an XML Schema (no target namespace) that accepts the same documents, for the WebAssembly
 * libxml2, which cannot validate against a DTD. Every element becomes a global element (a DTD does not say which is the
 * root, so any may be); `EMPTY`, `ANY`, `(#PCDATA)`, mixed content and content models of sequences, choices and `?`,
 * `*`, `+` map one to one; attribute types `CDATA`, `ID`, `IDREF(S)`, `NMTOKEN(S)` and enumerations (compared as
 * written, as libxml2's DTD check does), with `#REQUIRED`, `#IMPLIED`, defaults and `#FIXED`. Throws on what it does
 * not translate (parameter entities, conditional sections, entity and notation declarations, namespaced attributes),
 * so that a DTD it cannot express is never checked wrongly.
 */
export function dtdToXsd(dtd: string): string {
  const text = dtd.replace(/<!--[\s\S]*?-->/g, ' ').replace(/^\s*<\?xml[^?]*\?>/, '');
  if (/%|<!\[/.test(text)) throw new Error('the DTD uses parameter entities or conditional sections');
  const elements = new Map<string, string>();
  const attlists = new Map<string, string>();
  const declaration = /<!(ELEMENT|ATTLIST|ENTITY|NOTATION)\s+([^\s>]+)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (const [, kind, name = '', body = ''] of text.matchAll(declaration)) {
    if (kind === 'ELEMENT') elements.set(name, body.trim());
    else if (kind === 'ATTLIST') attlists.set(name, `${attlists.get(name) ?? ''} ${body}`);
    else throw new Error(`the DTD declares ${kind === 'ENTITY' ? 'entities' : 'notations'}`);
  }
  const rest = text.replace(declaration, '').trim();
  if (rest !== '') throw new Error(`the DTD has something other than declarations: ${rest.slice(0, 60)}`);
  for (const name of attlists.keys()) {
    if (!elements.has(name))
      throw new Error(`attributes are declared for ${name}, an element the DTD does not declare`);
  }

  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">'];
  for (const [name, model] of elements) {
    const attributes = attributeDeclarations(name, attlists.get(name) ?? '');
    let type: string | undefined;
    if (model === 'EMPTY') {
      type = `<xs:complexType>${attributes}</xs:complexType>`;
    } else if (model === 'ANY') {
      type = `<xs:complexType mixed="true"><xs:sequence><xs:any minOccurs="0" maxOccurs="unbounded" namespace="##local"/></xs:sequence>${attributes}</xs:complexType>`;
    } else if (/^\(\s*#PCDATA\s*\)\*?$/.test(model)) {
      type =
        attributes === ''
          ? undefined
          : `<xs:complexType><xs:simpleContent><xs:extension base="xs:string">${attributes}</xs:extension></xs:simpleContent></xs:complexType>`;
    } else if (/^\(\s*#PCDATA/.test(model)) {
      const mixed = /^\(\s*#PCDATA((?:\s*\|\s*[^\s|()]+)+)\s*\)\*$/.exec(model);
      if (!mixed) throw new Error(`the content model of ${name} is not one a DTD allows: ${model}`);
      const names = (mixed[1] ?? '')
        .split('|')
        .map((n) => n.trim())
        .filter((n) => n !== '');
      type = `<xs:complexType mixed="true"><xs:choice minOccurs="0" maxOccurs="unbounded">${names.map((n) => `<xs:element ref="${n}"/>`).join('')}</xs:choice>${attributes}</xs:complexType>`;
    } else {
      const [particle, end] = contentParticle(model, 0, name);
      if (model.slice(end).trim() !== '') throw new Error(`the content model of ${name} has extra text: ${model}`);
      const group = particle.startsWith('<xs:element') ? `<xs:sequence>${particle}</xs:sequence>` : particle;
      type = `<xs:complexType>${group}${attributes}</xs:complexType>`;
    }
    lines.push(
      type === undefined
        ? `  <xs:element name="${name}" type="xs:string"/>`
        : `  <xs:element name="${name}">${type}</xs:element>`,
    );
  }
  lines.push('</xs:schema>', '');
  return lines.join('\n');
}

function occurrence(q: string): string {
  if (q === '?') return ' minOccurs="0"';
  if (q === '*') return ' minOccurs="0" maxOccurs="unbounded"';
  if (q === '+') return ' maxOccurs="unbounded"';
  return '';
}

/** One content particle (a name or a parenthesised group, with its occurrence) from `at`: its schema and its end. */
function contentParticle(model: string, at: number, element: string): [string, number] {
  let i = at;
  const space = (): void => {
    while (/\s/.test(model.charAt(i))) i++;
  };
  const quantifier = (): string => ('?*+'.includes(model.charAt(i)) && model.charAt(i) !== '' ? model.charAt(i++) : '');
  space();
  if (model.charAt(i) !== '(') {
    const name = /^[^\s,|()?*+]+/.exec(model.slice(i))?.[0];
    if (name === undefined) throw new Error(`the content model of ${element} cannot be read: ${model}`);
    i += name.length;
    return [`<xs:element ref="${name}"${occurrence(quantifier())}/>`, i];
  }
  i++;
  const items: string[] = [];
  let separator: string | undefined;
  for (;;) {
    const [item, end] = contentParticle(model, i, element);
    items.push(item);
    i = end;
    space();
    const c = model.charAt(i);
    if (c === ')') {
      i++;
      break;
    }
    if ((c !== ',' && c !== '|') || (separator !== undefined && separator !== c)) {
      throw new Error(`the content model of ${element} cannot be read: ${model}`);
    }
    separator = c;
    i++;
  }
  const tag = separator === '|' ? 'xs:choice' : 'xs:sequence';
  return [`<${tag}${occurrence(quantifier())}>${items.join('')}</${tag}>`, i];
}

function xmlAttributeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** `xs:attribute` declarations for the body of an element's ATTLIST declarations. */
function attributeDeclarations(element: string, body: string): string {
  const definition =
    /\s*([^\s]+)\s+(CDATA|ID|IDREF|IDREFS|NMTOKEN|NMTOKENS|\([^)]*\))\s+(#REQUIRED|#IMPLIED|(?:#FIXED\s+)?(?:"[^"]*"|'[^']*'))/y;
  let out = '';
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = definition.exec(body)) !== null) {
    end = definition.lastIndex;
    const [, name = '', type = '', declared = ''] = m;
    if (name.includes(':') || name === 'xmlns') throw new Error(`the DTD declares the namespaced attribute ${name}`);
    let use = '';
    if (declared === '#REQUIRED') use = ' use="required"';
    else if (declared !== '#IMPLIED') {
      const value = xmlAttributeValue(declared.replace(/^#FIXED\s+/, '').slice(1, -1));
      use = declared.startsWith('#FIXED') ? ` fixed="${value}"` : ` default="${value}"`;
    }
    if (type.startsWith('(')) {
      const values = type
        .slice(1, -1)
        .split('|')
        .map((v) => `<xs:enumeration value="${xmlAttributeValue(v.trim())}"/>`);
      out += `<xs:attribute name="${name}"${use}><xs:simpleType><xs:restriction base="xs:string">${values.join('')}</xs:restriction></xs:simpleType></xs:attribute>`;
    } else {
      out += `<xs:attribute name="${name}" type="${XSD_BUILTIN[type] ?? 'xs:string'}"${use}/>`;
    }
  }
  if (body.slice(end).trim() !== '') {
    throw new Error(`the attributes of ${element} cannot be read: ${body.slice(end).trim().slice(0, 60)}`);
  }
  return out;
}
