import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { csvField, renderLinks, type LinkRow } from '../../src/links/render.js';
import { checkLinkTemplate, classLink, DEFAULT_LINK_TEMPLATE } from '../../src/links/template.js';

const values = {
  viewerUrl: 'https://www.livelox.com/',
  classId: 812001,
  eventId: 151234,
  className: 'H21 E',
  eventName: 'Vår & höst',
};

const hostile: LinkRow[] = [
  {
    emsClass: '<script>alert(1)</script>',
    serviceClass: 'H21 "Elit"',
    classId: 1,
    url: 'https://v.example/Viewer?classId=1&x="y"',
  },
  {
    emsClass: '=HYPERLINK("http://evil")',
    serviceClass: 'D|21 [x](y)',
    classId: 2,
    url: 'https://v.example/Viewer (2)?classId=2',
  },
  { emsClass: 'Öppen 1', serviceClass: "O'Neill", classId: 3, url: 'https://v.example/Viewer?classId=3' },
];

describe('viewer link templates', () => {
  it('builds the default link under the viewer site from the class id, without a doubled slash', () => {
    expect(classLink(undefined, DEFAULT_LINK_TEMPLATE, values)).toEqual({
      url: 'https://www.livelox.com/Viewer?classId=812001',
      from: 'template',
    });
  });

  it("prefers the service's class url when it is an http(s) address", () => {
    const url = 'https://www.livelox.com/Viewer/Var-host/H21?classId=812001';
    expect(classLink(url, DEFAULT_LINK_TEMPLATE, values)).toEqual({ url, from: 'service' });
  });

  it('never passes on a service url that is not http(s)', () => {
    expect(classLink('javascript:alert(1)', DEFAULT_LINK_TEMPLATE, values).from).toBe('template');
    expect(classLink('not a url', DEFAULT_LINK_TEMPLATE, values).url).toBe(
      'https://www.livelox.com/Viewer?classId=812001',
    );
  });

  it('encodes names put into a custom template', () => {
    const { url } = classLink(
      undefined,
      'https://portal.example/{eventId}/{className}?e={eventName}&c={classId}',
      values,
    );
    expect(url).toBe('https://portal.example/151234/H21%20E?e=V%C3%A5r%20%26%20h%C3%B6st&c=812001');
  });

  it('refuses unknown placeholders, templates naming no class and templates that give no web address', () => {
    const codes = (t: string) => {
      try {
        checkLinkTemplate(t);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError);
        return (err as ValidationError).issues.map((i) => i.code);
      }
    };
    expect(codes(DEFAULT_LINK_TEMPLATE)).toEqual([]);
    expect(codes('{viewerUrl}/Viewer?classId={classid}')).toEqual(['unknown_placeholder', 'no_class']);
    expect(codes('{viewerUrl}/Viewer')).toEqual(['no_class']);
    expect(codes('javascript:go({classId})')).toEqual(['not_a_url']);
  });
});

describe('link renderings', () => {
  it('escapes every name in the HTML fragment, names links by the event system, and marks them rel="noopener"', () => {
    const html = renderLinks(hostile, 'html', 'Event <b>&</b>', { updated: new Date('2026-11-27T20:00:00Z') });
    expect(html).not.toContain('<script>');
    expect(html).toContain('<p class="livelox-event">Livelox: Event &#60;b&#62;&#38;&#60;/b&#62;</p>');
    // The link's text is the event system's class; the service's name is its title.
    expect(html.replace(/<wbr>/g, '')).toContain(
      '<a href="https://v.example/Viewer?classId=1&#38;x=&#34;y&#34;" rel="noopener" title="H21 &#34;Elit&#34;">&#60;script&#62;alert(1)&#60;/script&#62;</a>',
    );
    // A word longer than 24 characters gets places to break (a phone's page must not scroll sideways), never inside
    // an escape.
    expect(html).toContain('>&#60;script&#62;aler<wbr>t(1)&#60;/script<wbr>&#62;</a>');
    expect(html).toContain('<time datetime="2026-11-27T20:00:00.000Z">Nov 27, 2026, 08:00 PM UTC</time>');
    expect(html).toContain('O&#39;Neill');
    expect(html.match(/<a /g)).toHaveLength(3);
    expect(html.match(/rel="noopener"/g)).toHaveLength(3);
  });

  it('quotes CSV fields and defuses formulas', () => {
    const csv = renderLinks(hostile, 'csv', 'x').split('\r\n');
    expect(csv[0]).toBe('ems_class,service_class,class_id,url');
    expect(csv[1]).toBe('"<script>alert(1)</script>","H21 ""Elit""","1","https://v.example/Viewer?classId=1&x=""y"""');
    expect(csv[2]!.startsWith(`"'=HYPERLINK(""http://evil"")"`)).toBe(true);
    expect(csvField('-16')).toBe('"-16"');
    expect(csvField('-1.5')).toBe('"-1.5"');
    expect(csvField("-1+cmd|' /C calc'!A0")).toBe(`"'-1+cmd|' /C calc'!A0"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
  });

  it('escapes Markdown table syntax in names and keeps link targets in one piece', () => {
    const md = renderLinks(hostile, 'md', 'x').split('\n');
    expect(md).toHaveLength(5);
    expect(md[3]).toBe(
      '| =HYPERLINK\\("http://evil"\\) | [D\\|21 \\[x\\]\\(y\\)](https://v.example/Viewer%20%282%29?classId=2) |',
    );
    for (const line of md.slice(2)) expect(line.split(/(?<!\\)\|/)).toHaveLength(4);
  });

  it('shows a class without a link as an unmapped row, its reason escaped, in every format', () => {
    const rows = [hostile[2]!, { emsClass: 'H70 <i>', unmapped: 'the service class "H70" <b>(7)</b> was removed' }];
    const html = renderLinks(rows, 'html', 'x');
    expect(html).toContain(
      '<li class="livelox-unmapped">H70 &#60;i&#62; <small class="livelox-why">(no link: <span lang="en">the service class &#34;H70&#34; &#60;b&#62;(7)&#60;/b&#62; was removed</span>)</small></li>',
    );
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(renderLinks(rows, 'csv', 'x').split('\r\n')[2]).toBe('"H70 <i>","","",""');
    expect(renderLinks(rows, 'md', 'x').split('\n')[3]).toBe(
      '| H70 \\<i\\> | unmapped: the service class "H70" \\<b\\>\\(7\\)\\</b\\> was removed |',
    );
  });
});

describe('URLs from service data in Markdown', () => {
  it('carry no control character or bidi override raw: they are percent-encoded', () => {
    const url = 'https://x.example/a\u001b]8;;http://evil\u0007b\u202ec\u0085d';
    const md = renderLinks([{ emsClass: 'H21', serviceClass: 'H21', classId: 1, url }], 'md', 'x');
    for (const raw of ['\u001b', '\u0007', '\u0085', '\u202e']) expect(md).not.toContain(raw);
    expect(md).toContain('https://x.example/a%1B]8;;http://evil%07b%E2%80%AEc%C2%85d');
  });
});
