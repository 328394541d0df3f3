// CSV files for spreadsheets (the commission statement, a unit's stock): ';' separated,
// decimal comma, CRLF line ends, UTF-8 with a BOM so Excel reads the accents right.

const SEPARATOR = ';';
const BOM = '\uFEFF';

/** '1234,50', '-20,00': decimal comma, no thousands separator, no currency. */
export const csvNumber = (value: number) => {
  const rounded = Math.round(value * 100) / 100;
  return (rounded === 0 ? 0 : rounded).toFixed(2).replace('.', ',');
};

/**
 * A text cell: quoted when it holds the separator, a quote or a line break; a leading
 * '=', '+', '-' or '@' is escaped with an apostrophe, so a spreadsheet never runs it as a formula.
 */
export function csvText(text: string): string {
  const plain = text.replace(/\u00a0/g, ' ');
  const safe = /^[=+\-@]/.test(plain) ? `'${plain}` : plain;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The rows (cells already written by `csvText`/`csvNumber`) as the file's text. */
export const csvDocument = (rows: readonly (readonly string[])[]) => `${BOM}${rows.map((row) => row.join(SEPARATOR)).join('\r\n')}\r\n`;

/** 'Navalha Centro' → 'navalha-centro' (no accents, lower case, words joined by '-'); `fallback` when nothing is left. */
export function fileSlug(text: string, fallback: string): string {
  const slug = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || fallback;
}

/** Saves the CSV as a file (the text carries its BOM). */
export function downloadCsv(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
