import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatBRL } from '@/lib/money';
import { countText, entryRows, methodLabel } from './model';
import type { CaixaEntry } from './types';

// The entries per method as bars, in the home's chart style (features/home/charts.tsx). The
// drawing is aria-hidden: the entries' table beside it is what assistive technology reads.

const AXIS_TICK = { fontSize: 12, fill: '#636b78' };
const GRID_STROKE = '#e5e7eb';
const CURSOR = { fill: 'rgba(31, 41, 55, 0.06)' };
const TOOLTIP_ITEM = { color: '#1f2937' };
const BAR_COLOR = '#1f2937';
const ROW_HEIGHT = 36;

const compactBRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact' });

export interface EntryBar {
  name: string;
  value: number;
  count: number;
}

/** One bar per method, every method listed. */
export const entryBars = (entries: readonly CaixaEntry[]): EntryBar[] =>
  entryRows(entries).map((entry) => ({ name: methodLabel(entry.Method), value: entry.Value, count: entry.Count }));

/** Nothing to draw when no payment came in. */
export const hasEntries = (entries: readonly CaixaEntry[]) => entries.some((entry) => entry.Value !== 0);

export function EntriesChart({ entries }: { entries: readonly CaixaEntry[] }) {
  if (!hasEntries(entries)) return null;
  const bars = entryBars(entries);
  return (
    <div className="caixa-chart no-print" aria-hidden="true">
      <ResponsiveContainer width="100%" height={bars.length * ROW_HEIGHT + 40}>
        <BarChart data={bars} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid horizontal={false} stroke={GRID_STROKE} />
          <XAxis type="number" tickFormatter={(value: number) => compactBRL.format(value)} tick={AXIS_TICK} tickLine={false} />
          <YAxis type="category" dataKey="name" width={130} tick={AXIS_TICK} tickLine={false} />
          <Tooltip
            cursor={CURSOR}
            itemStyle={TOOLTIP_ITEM}
            separator=": "
            formatter={(_value, _name, item) => {
              const bar = item.payload as EntryBar;
              return [`${formatBRL(bar.value)} (${countText(bar.count)})`, 'Recebido'];
            }}
          />
          <Bar dataKey="value" name="Recebido" fill={BAR_COLOR} radius={[0, 4, 4, 0]} maxBarSize={24} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
