import type { ReactNode } from 'react';

// The table form of a chart (the home's charts, the commission statement's): its drawing is
// aria-hidden, and this visually hidden table is what assistive technology reads.

export interface ChartTableProps {
  caption: string;
  headers: string[];
  /** The first cell of each row heads it. */
  rows: { key: string | number; cells: ReactNode[] }[];
}

/** The table form of a chart, read by screen readers only. */
export function ChartTable({ caption, headers, rows }: ChartTableProps) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.cells.map((cell, index) =>
              index === 0 ? (
                <th key={index} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={index}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
