import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Provider } from 'react-redux';
import { describe, expect, it, vi } from 'vitest';
import { notifyError } from '@/lib/notify';
import { makeStore } from '@/app/store';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { HISTORY_EMPTY, HistoryList } from './HistoryList';
import type { HistoryEntry } from './types';

vi.mock('@/lib/notify', async (original) => ({
  ...(await original<typeof import('@/lib/notify')>()),
  notifyError: vi.fn(),
}));

const moved: HistoryEntry[] = [
  {
    Sequence: 1,
    At: '2026-11-24T13:00:00Z',
    UserId: 2,
    UserName: 'Beatriz Atendente',
    Role: 'ATTENDANT',
    Event: 'AppointmentBooked',
    Changes: [
      { Field: 'company_id', From: null, To: 1 },
      { Field: 'start', From: null, To: '15:00' },
      { Field: 'observation', From: null, To: '' },
    ],
  },
  {
    Sequence: 2,
    At: '2026-11-24T14:10:00Z',
    UserId: 3,
    UserName: 'Caio Líder',
    Role: 'BARBER_LEADE',
    Event: 'AppointmentChanged',
    Changes: [{ Field: 'start', From: '15:00', To: '12:00' }],
  },
];

function renderList(id = 9) {
  const store = makeStore({
    session: signedInSession('ADMIN', { companyList: [{ ...ownCompany, canHide: false }] }),
  });
  render(
    <Provider store={store}>
      <HistoryList target={{ subject: 'appointment', id }} label="Histórico do agendamento" />
    </Provider>,
  );
}

describe('HistoryList', () => {
  it('lists the entries newest first: what, when, who with their role, and each field from → to', async () => {
    server.use(http.get(apiUrl('scheduling/9/history'), () => HttpResponse.json(moved)));
    renderList();
    expect(screen.getByText('Carregando...')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Histórico do agendamento' });
    const [move, booking] = within(list).getAllByRole('listitem');
    expect(move.textContent).toContain('Horário alterado');
    expect(move.textContent).toContain('24/11/2026 11:10');
    expect(move.textContent).toContain('Caio LíderBarbeiro líder');
    expect(move.querySelector('.history-from')?.textContent).toBe('15:00');
    expect(move.querySelector('.history-to')?.textContent).toBe('12:00');
    // A booking lists its values (the unit by name), not empty ones, with no 'from'.
    expect(booking.textContent).toContain('Agendamento criado');
    expect(within(booking).getByText('Navalha Centro')).toBeTruthy();
    expect(booking.textContent).not.toContain('Observações');
    expect(booking.querySelector('.history-from')).toBeNull();
  });

  it('says when there is nothing', async () => {
    server.use(http.get(apiUrl('scheduling/9/history'), () => HttpResponse.json([])));
    renderList();
    expect(await screen.findByText(HISTORY_EMPTY)).toBeTruthy();
  });

  it("shows the server's refusal in place, without a toast", async () => {
    server.use(
      http.get(apiUrl('scheduling/8/history'), () =>
        HttpResponse.json({ message: 'Agendamento não encontrado.' }, { status: 404 }),
      ),
    );
    renderList(8);
    expect(await screen.findByText('Agendamento não encontrado.')).toBeTruthy();
    expect(notifyError).not.toHaveBeenCalled();
  });
});
