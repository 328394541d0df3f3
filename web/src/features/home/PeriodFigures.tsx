import { formatBRL } from '@/lib/money';
import type { Dashboard } from './homeApi';
import { KeyFigures, type Figure } from './KeyFigures';
import { percentText } from './shaping';

/** The period's key figures, the same on the desktop and the phone. */
export function PeriodFigures({ data }: { data: Dashboard }) {
  const { Totals, Received } = data;
  const figures: Figure[] = [
    { label: 'Agendamentos', value: Totals.Appointments },
    { label: 'Atendidos', value: Totals.Attended },
    { label: 'Não compareceram', value: Totals.NoShows, detail: percentText(Totals.NoShowRate) },
    { label: 'Cancelamentos', value: Totals.Cancelled, detail: percentText(Totals.CancellationRate) },
    { label: 'Receita prevista', value: formatBRL(Totals.ExpectedRevenue) },
    { label: 'Recebido', value: formatBRL(Received.Total) },
    ...(data.Own || Totals.NewClients == null ? [] : [{ label: 'Novos clientes', value: Totals.NewClients }]),
  ];
  return <KeyFigures figures={figures} label="Números do período" />;
}
