import { useId, type CSSProperties, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Rectangle,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
} from 'recharts';
import { ChartTable, type ChartTableProps } from '@/components/charts/ChartTable';
import { weekdayOf } from '@/lib/dates';
import { formatBRL } from '@/lib/money';
import {
  busyCells,
  countText,
  EMPTY_CHART,
  hourText,
  hoursText,
  occupancyDomainMax,
  occupancyText,
  percentText,
  receivedText,
  weekdayName,
  type DayBar,
  type HeatMap,
  type MonthBar,
  type OccupancyBar,
  type ReceivedBar,
  type ReceivedDayBar,
  type ReminderDayBar,
  type ServiceBar,
} from './shaping';

// The home's charts: each a card with a title, a tooltip, an empty state and a visually
// hidden table for screen readers (the drawing itself is aria-hidden).

const CHART_HEIGHT = 240;
/** The reminders' chart, small under its figure. */
const SMALL_CHART_HEIGHT = 180;
const BAR_ROW_HEIGHT = 36;
const AXIS_TICK = { fontSize: 12, fill: '#636b78' };
const GRID_STROKE = '#e5e7eb';
const CURSOR = { fill: 'rgba(31, 41, 55, 0.06)' };
/** Tooltip lines in the text colour: the amber series would not read on white. */
const TOOLTIP_ITEM = { color: '#1f2937' };

export const SERIES_COLORS = {
  confirmed: '#2e7d32',
  toConfirm: '#f59e0b',
  cancelled: '#dc2626',
  received: '#2e7d32',
  toReceive: '#f59e0b',
  service: '#1f2937',
  sent: '#1d4ed8',
};

const compactBRL = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', notation: 'compact' });
const moneyTick = (value: number) => compactBRL.format(value);
const money = (value: unknown) => formatBRL(Number(value));
/** Series in the order drawn (recharts sorts legends and tooltips by name otherwise). */
const drawnOrder = () => 0;

interface ChartCardProps extends Omit<ChartTableProps, 'caption'> {
  title: string;
  empty: boolean;
  children: ReactNode;
}

/** A chart's card: title, then the drawing and its table, or 'Sem dados no período.'. */
export function ChartCard({ title, empty, headers, rows, children }: ChartCardProps) {
  const id = useId();
  return (
    <section className="home-card" aria-labelledby={id}>
      <h2 id={id} className="home-card-title">
        {title}
      </h2>
      {empty ? (
        <p className="home-empty">{EMPTY_CHART}</p>
      ) : (
        <>
          <div className="home-chart" aria-hidden="true">
            {children}
          </div>
          <ChartTable caption={title} headers={headers} rows={rows} />
        </>
      )}
    </section>
  );
}

/** A horizontal bar chart's height: one row per bar, plus the axis. */
const rowsHeight = (rows: number) => Math.max(120, rows * BAR_ROW_HEIGHT + 40);

/** 'Segunda-feira, 23/11' as the tooltip's title of a day. */
function dayTitle(label: ReactNode, payload: readonly { payload?: { date?: string } }[]) {
  const date = payload?.[0]?.payload?.date;
  return date ? `${weekdayName(weekdayOf(date))}, ${label}` : label;
}

interface Series {
  key: string;
  name: string;
  color: string;
}

interface ColumnChartProps<T> {
  data: T[];
  series: Series[];
  /** Stacked (one column per category) or grouped side by side. */
  stacked: boolean;
  yTick?: (value: number) => string;
  yWidth: number;
  formatter?: (value: unknown) => ReactNode;
  labelFormatter?: typeof dayTitle;
  height?: number;
}

/** Columns over categories (the data's `label`), several series with a legend. */
function ColumnChart<T extends { label: string }>({
  data,
  series,
  stacked,
  yTick,
  yWidth,
  formatter,
  labelFormatter,
  height = CHART_HEIGHT,
}: ColumnChartProps<T>) {
  const last = series.length - 1;
  return (
    <ResponsiveContainer width="100%" height={height}>
      {/* No keyboard layer: the drawing is aria-hidden, and its table is what assistive
          technology reads (a focusable element inside aria-hidden is an axe violation). */}
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke={GRID_STROKE} />
        <XAxis dataKey="label" tick={AXIS_TICK} tickLine={false} interval="preserveStartEnd" minTickGap={12} />
        <YAxis allowDecimals={false} tickFormatter={yTick} tick={AXIS_TICK} tickLine={false} axisLine={false} width={yWidth} />
        <Tooltip
          cursor={CURSOR}
          itemStyle={TOOLTIP_ITEM}
          separator=": "
          formatter={formatter}
          labelFormatter={labelFormatter}
          itemSorter={drawnOrder}
        />
        <Legend iconType="circle" wrapperStyle={{ fontSize: 13 }} itemSorter={null} />
        {series.map((one, index) => (
          <Bar
            key={one.key}
            dataKey={one.key}
            name={one.name}
            fill={one.color}
            stackId={stacked ? 'stack' : undefined}
            // Rounded tops: the last of a stack, every column of a group.
            radius={!stacked || index === last ? [4, 4, 0, 0] : 0}
            maxBarSize={stacked ? 48 : 32}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

interface RowChartProps<T> {
  data: T[];
  dataKey: string;
  name: string;
  /** One colour for every bar, or each bar's own. */
  fill: string | ((row: T) => string);
  domainMax?: number;
  xTick: (value: number) => string;
  /** The tooltip's line for a row. */
  tooltip: (row: T) => string;
}

/** One horizontal bar per row (the data's `name`), one series. */
function RowChart<T extends { name: string }>({ data, dataKey, name, fill, domainMax, xTick, tooltip }: RowChartProps<T>) {
  const shape =
    typeof fill === 'function'
      ? (props: BarShapeProps) => <Rectangle {...props} fill={fill(props.payload as T)} radius={[0, 4, 4, 0]} />
      : undefined;
  return (
    <ResponsiveContainer width="100%" height={rowsHeight(data.length)}>
      <BarChart data={data} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid horizontal={false} stroke={GRID_STROKE} />
        <XAxis
          type="number"
          domain={domainMax === undefined ? undefined : [0, domainMax]}
          tickFormatter={xTick}
          tick={AXIS_TICK}
          tickLine={false}
        />
        <YAxis type="category" dataKey="name" width={130} tick={AXIS_TICK} tickLine={false} />
        <Tooltip
          cursor={CURSOR}
          itemStyle={TOOLTIP_ITEM}
          separator=": "
          formatter={(_value, _name, item) => [tooltip(item.payload as T), name]}
        />
        <Bar
          dataKey={dataKey}
          name={name}
          fill={typeof fill === 'string' ? fill : undefined}
          shape={shape}
          radius={[0, 4, 4, 0]}
          maxBarSize={24}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function DaysChart({ bars, empty }: { bars: DayBar[]; empty: boolean }) {
  return (
    <ChartCard
      title="Agendamentos por dia"
      empty={empty}
      headers={['Dia', 'Confirmados', 'A confirmar', 'Cancelados']}
      rows={bars.map((bar) => ({ key: bar.date, cells: [bar.label, bar.confirmed, bar.toConfirm, bar.cancelled] }))}
    >
      <ColumnChart
        data={bars}
        stacked
        yWidth={32}
        labelFormatter={dayTitle}
        series={[
          { key: 'confirmed', name: 'Confirmados', color: SERIES_COLORS.confirmed },
          { key: 'toConfirm', name: 'A confirmar', color: SERIES_COLORS.toConfirm },
          { key: 'cancelled', name: 'Cancelados', color: SERIES_COLORS.cancelled },
        ]}
      />
    </ChartCard>
  );
}

export function OccupancyChart({ bars }: { bars: OccupancyBar[] }) {
  return (
    <ChartCard
      title="Ocupação por profissional"
      empty={bars.length === 0}
      headers={['Profissional', 'Ocupação', 'Agendado', 'Disponível']}
      rows={bars.map((bar) => ({
        key: bar.id,
        cells: [bar.name, occupancyText(bar), hoursText(bar.booked), hoursText(bar.working)],
      }))}
    >
      <RowChart
        data={bars}
        dataKey="percent"
        name="Ocupação"
        // Each professional in their colour.
        fill={(bar) => bar.color}
        domainMax={occupancyDomainMax(bars)}
        xTick={(value) => `${value}%`}
        tooltip={(bar) => `${occupancyText(bar)} (${hoursText(bar.booked)} de ${hoursText(bar.working)})`}
      />
    </ChartCard>
  );
}

export function ServicesChart({ bars }: { bars: ServiceBar[] }) {
  return (
    <ChartCard
      title="Receita prevista por serviço"
      empty={bars.length === 0}
      headers={['Serviço', 'Quantidade', 'Receita prevista']}
      rows={bars.map((bar) => ({ key: bar.id, cells: [bar.name, bar.count, formatBRL(bar.value)] }))}
    >
      <RowChart
        data={bars}
        dataKey="value"
        name="Receita prevista"
        fill={SERIES_COLORS.service}
        xTick={moneyTick}
        tooltip={(bar) => `${formatBRL(bar.value)} (${bar.count}×)`}
      />
    </ChartCard>
  );
}

export function ReceivedDaysChart({ bars, empty }: { bars: ReceivedDayBar[]; empty: boolean }) {
  return (
    <ChartCard
      title="Recebido por dia"
      empty={empty}
      headers={['Dia', 'Recebido']}
      rows={bars.map((bar) => ({ key: bar.date, cells: [bar.label, formatBRL(bar.received)] }))}
    >
      <ColumnChart
        data={bars}
        stacked={false}
        yTick={moneyTick}
        yWidth={84}
        formatter={money}
        labelFormatter={dayTitle}
        series={[{ key: 'received', name: 'Recebido', color: SERIES_COLORS.received }]}
      />
    </ChartCard>
  );
}

/** A breakdown of what was received (by method, by professional): one bar each, in its colour. */
function ReceivedChart({
  title,
  header,
  bars,
  valueLabel = 'Recebido',
}: {
  title: string;
  header: string;
  bars: ReceivedBar[];
  valueLabel?: string;
}) {
  return (
    <ChartCard
      title={title}
      empty={bars.length === 0}
      headers={[header, valueLabel, 'Parte']}
      rows={bars.map((bar) => ({ key: bar.key, cells: [bar.name, formatBRL(bar.value), percentText(bar.share)] }))}
    >
      <RowChart data={bars} dataKey="value" name={valueLabel} fill={(bar) => bar.color} xTick={moneyTick} tooltip={receivedText} />
    </ChartCard>
  );
}

export const MethodsChart = ({ bars }: { bars: ReceivedBar[] }) => (
  <ReceivedChart title="Recebido por forma de pagamento" header="Forma de pagamento" bars={bars} />
);

export const ReceivedProfessionalsChart = ({ bars }: { bars: ReceivedBar[] }) => (
  <ReceivedChart title="Recebido por profissional" header="Profissional" bars={bars} />
);

/** Issue 42: what each professional's closed comandas earned them in the commission period. */
export const CommissionsChart = ({ title, bars }: { title: string; bars: ReceivedBar[] }) => (
  <ReceivedChart title={title} header="Profissional" valueLabel="Comissões e gorjetas" bars={bars} />
);

/** Weekday × hour heat map (a CSS grid; the cell's tooltip on hover). */
export function BusyHoursMap({ map }: { map: HeatMap }) {
  const cells = busyCells(map);
  return (
    <ChartCard
      title="Horários mais movimentados"
      empty={map.max === 0}
      headers={['Dia da semana', 'Horário', 'Agendamentos']}
      rows={cells.map((cell) => ({
        key: `${cell.weekday}-${cell.hour}`,
        cells: [weekdayName(cell.weekday), hourText(cell.hour), cell.count],
      }))}
    >
      <div className="heat-map" style={{ gridTemplateColumns: `3rem repeat(${map.hours.length}, minmax(0, 1fr))` }}>
        <span />
        {map.hours.map((hour) => (
          <span key={hour} className="heat-hour">
            {hourText(hour)}
          </span>
        ))}
        {map.rows.map((row) => (
          <div key={row.weekday} className="heat-row">
            <span className="heat-day">{row.label}</span>
            {row.cells.map((cell) => (
              <span
                key={cell.hour}
                className={`heat-cell${cell.count ? '' : ' heat-cell-zero'}`}
                style={{ '--heat': cell.intensity.toFixed(3) } as CSSProperties}
                data-tip={cell.text}
              >
                {cell.count || ''}
              </span>
            ))}
          </div>
        ))}
      </div>
      <p className="heat-scale">
        <span>Menos</span>
        <span className="heat-scale-bar" />
        <span>Mais ({countText(map.max)})</span>
      </p>
    </ChartCard>
  );
}

export function ClubMonthsChart({ bars, empty }: { bars: MonthBar[]; empty: boolean }) {
  return (
    <ChartCard
      title="Recebido e a receber por mês"
      empty={empty}
      headers={['Mês', 'Recebido', 'A receber']}
      rows={bars.map((bar) => ({ key: bar.month, cells: [bar.label, formatBRL(bar.received), formatBRL(bar.toReceive)] }))}
    >
      <ColumnChart
        data={bars}
        stacked={false}
        yTick={moneyTick}
        yWidth={84}
        formatter={money}
        series={[
          { key: 'received', name: 'Recebido', color: SERIES_COLORS.received },
          { key: 'toReceive', name: 'A receber', color: SERIES_COLORS.toReceive },
        ]}
      />
    </ChartCard>
  );
}

/**
 * Issue 44: the reminders sent and confirmed each day, inside the confirmation card (its
 * title is the card's): the drawing for the eyes, the table for screen readers.
 */
export function ReminderDaysChart({ bars }: { bars: ReminderDayBar[] }) {
  return (
    <>
      <div className="home-chart" aria-hidden="true">
        <ColumnChart
          data={bars}
          stacked={false}
          yWidth={32}
          height={SMALL_CHART_HEIGHT}
          labelFormatter={dayTitle}
          series={[
            { key: 'sent', name: 'Enviadas', color: SERIES_COLORS.sent },
            { key: 'confirmed', name: 'Confirmadas', color: SERIES_COLORS.confirmed },
          ]}
        />
      </div>
      <ChartTable
        caption="Lembretes por dia"
        headers={['Dia', 'Enviadas', 'Confirmadas']}
        rows={bars.map((bar) => ({ key: bar.date, cells: [bar.label, bar.sent, bar.confirmed] }))}
      />
    </>
  );
}
