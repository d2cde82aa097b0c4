/**
 * Reading a CSV file with a header (RFC 4180: quoted fields, `""` inside quotes, CRLF or LF), as spreadsheets and
 * timing software write it. Excel in much of Europe separates with `;`: the header line decides, so a manifest saved
 * from either works. Rows keep their line number, so that a message can point at the row a person must fix.
 */

export interface CsvRow {
  /** 1-based line where the row starts (the header is line 1). */
  line: number;
  cells: string[];
}

export interface CsvTable {
  /** The header's names, trimmed. */
  header: string[];
  /** Rows after the header; blank lines are left out. */
  rows: CsvRow[];
  /** What makes the text unreadable as CSV (an unclosed quote, no header), or undefined. */
  error?: string;
}

export function parseCsv(text: string): CsvTable {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const records: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let blank = true;
  const endRecord = (): void => {
    cells.push(cell);
    if (!(blank && cells.length === 1 && cell.trim() === '')) records.push({ line: start, cells });
    cells = [];
    cell = '';
    blank = true;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      cell = '';
      quoted = true;
      blank = false;
    } else if (ch === sep) {
      cells.push(cell);
      cell = '';
      blank = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else {
      cell += ch;
    }
  }
  if (quoted) return { header: [], rows: [], error: `line ${start}: a quoted field is not closed.` };
  if (cell !== '' || cells.length > 0) endRecord();
  const [head, ...rows] = records;
  if (!head) return { header: [], rows: [], error: 'is empty: a CSV manifest starts with a header line.' };
  return { header: head.cells.map((h) => h.trim()), rows };
}
