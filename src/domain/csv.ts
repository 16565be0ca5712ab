/**
 * CSV for spreadsheet users: RFC 4180 quoting, and cells that a spreadsheet would run as a
 * formula (starting with = + - @, or a tab or carriage return) are prefixed with a single
 * quote, so a ref_id or note a reseller's customer typed cannot become a formula on the
 * reseller's machine (CSV injection).
 */
export type CsvCell = string | number | boolean | null | undefined;

export function csvCell(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvRow = (cells: readonly CsvCell[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A whole document: header row, then the rows. */
export const csvDocument = (header: readonly string[], rows: readonly (readonly CsvCell[])[]) => csvRow(header) + rows.map(csvRow).join('');
