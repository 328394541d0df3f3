import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartTable } from '@/components/charts/ChartTable';
import { formatBRL } from '@/lib/money';
import { commissionBars, EMPTY_CHART, hasCommission, type CommissionBar } from './model';
import type { Statement } from './types';

// The commission per day (per month for a long period) as columns, in the home's chart style
// (features/home/charts.tsx). The drawing is aria-hidden: the visually hidden table beside it
// is what assistive technology reads.

const CHART_HEIGHT = 220;
const AXIS_TICK = { fontSize: 12, fill: '#636b78' };
const GRID_STROKE = '#e5e7eb';
const CURSOR = { fill: 'rgba(31, 41, 55, 0.06)' };
const TOOLTIP_ITEM = { color: '#1f2937' };
const BAR_COLOR = '#2e7d32';

const compactBRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact' });

export function CommissionChart({ statement }: { statement: Pick<Statement, 'From' | 'To' | 'Comandas' | 'Lines'> }) {
  const titleId = useId();
  const { unit, bars } = commissionBars(statement);
  const title = unit === 'day' ? 'Comissão por dia' : 'Comissão por mês';
  return (
    <section className="commission-card commission-chart-card no-print" aria-labelledby={titleId}>
      <h2 id={titleId} className="commission-card-title">
        {title}
      </h2>
      {hasCommission(bars) ? (
        <>
          <div className="commission-chart" aria-hidden="true">
            <ResponsiveContainer width="100%" height={CHART_HEIGHT}>
              {/* No keyboard layer: the drawing is aria-hidden (a focusable element inside it is an axe violation). */}
              <BarChart data={bars} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
                <CartesianGrid vertical={false} stroke={GRID_STROKE} />
                <XAxis dataKey="label" tick={AXIS_TICK} tickLine={false} interval="preserveStartEnd" minTickGap={12} />
                <YAxis
                  tickFormatter={(value: number) => compactBRL.format(value)}
                  tick={AXIS_TICK}
                  tickLine={false}
                  axisLine={false}
                  width={72}
                />
                <Tooltip
                  cursor={CURSOR}
                  itemStyle={TOOLTIP_ITEM}
                  separator=": "
                  labelFormatter={(_label, payload) => (payload?.[0]?.payload as CommissionBar | undefined)?.title ?? _label}
                  formatter={(value) => [formatBRL(Number(value)), 'Comissão']}
                />
                <Bar dataKey="commission" name="Comissão" fill={BAR_COLOR} radius={[4, 4, 0, 0]} maxBarSize={32} />
              </BarChart>
            </ResponsiveContainer>
          </div>
          <ChartTable
            caption={title}
            headers={[unit === 'day' ? 'Dia' : 'Mês', 'Comissão']}
            rows={bars.map((bar) => ({ key: bar.key, cells: [bar.title, formatBRL(bar.commission)] }))}
          />
        </>
      ) : (
        <p className="commission-empty">{EMPTY_CHART}</p>
      )}
    </section>
  );
}
