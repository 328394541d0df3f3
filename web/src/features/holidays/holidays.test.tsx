import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { otherCompany, ownCompany, signedInSession } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { holidayFilterUrl } from './holidaysApi';
import { EMPTY_HOLIDAY, holidayPayload, holidaySchema, type HolidayFormValues } from './schema';
import type { Holiday } from './types';

const VALID: HolidayFormValues = {
  description: 'Natal',
  startDate: '2026-12-25',
  endDate: '2026-12-25',
  allCompanies: false,
  idsCompanies: [1],
  allDay: 'false',
  startTime: '08:00',
  endTime: '12:00',
};

async function errorsOf(values: Partial<HolidayFormValues>) {
  try {
    await holidaySchema.validate({ ...VALID, ...values }, { abortEarly: false });
    return {};
  } catch (failure) {
    const { inner } = failure as { inner: { path: string; message: string }[] };
    return Object.fromEntries(inner.map((error) => [error.path, error.message]));
  }
}

describe('holiday schema (spec 02 §5 Holiday form)', () => {
  it('accepts a time window and an all-day holiday of every unit', async () => {
    expect(await errorsOf({})).toEqual({});
    expect(await errorsOf({ allDay: 'true', startTime: '', endTime: '', allCompanies: true, idsCompanies: [] })).toEqual({});
  });

  it('requires each field with its message', async () => {
    expect(await errorsOf({ ...EMPTY_HOLIDAY, allDay: 'false' })).toEqual({
      description: 'Digite a descrição do feriado',
      startDate: 'Digite o início',
      endDate: 'Digite o fim',
      idsCompanies: 'Informe pelo menos uma empresa',
      startTime: 'Digite o horário inicial',
      endTime: 'Digite o horário final',
    });
  });

  it('checks the description, dates and times', async () => {
    expect(await errorsOf({ description: 'Ab de' })).toEqual({ description: 'Digite uma descrição válida' });
    expect(await errorsOf({ startDate: '2000-12-31' })).toEqual({ startDate: 'Digite uma data válida' });
    expect(await errorsOf({ endDate: '2026-02-30' })).toEqual({ endDate: 'Digite uma data válida' });
    expect(await errorsOf({ endDate: '2026-12-24' })).toEqual({ endDate: 'Data deve ser maior ou igual à data inicio' });
    expect(await errorsOf({ startTime: '25:00' })).toEqual({ startTime: 'Formato incorreto.' });
    expect(await errorsOf({ endTime: '12:6' })).toEqual({ endTime: 'Formato incorreto.' });
    expect(await errorsOf({ endTime: '08:00' })).toEqual({ endTime: 'Horário deve ser maior que horário início' });
    // Over several days the end time may be earlier than the start time.
    expect(await errorsOf({ endDate: '2026-12-26', endTime: '07:00' })).toEqual({});
  });

  it('sends null times when all-day and no units with allCompanies', () => {
    expect(holidayPayload({ ...VALID, allDay: 'true', allCompanies: true })).toEqual({
      description: 'Natal',
      startDate: '2026-12-25',
      endDate: '2026-12-25',
      allDay: true,
      startTime: null,
      endTime: null,
      allCompanies: true,
      idsCompanies: [],
    });
    expect(holidayPayload(VALID)).toMatchObject({ allDay: false, startTime: '08:00', endTime: '12:00', idsCompanies: [1] });
    expect(holidayFilterUrl({ page: 1, pageSize: 5, search: ' natal ' })).toBe('holiday/filter?page=1&pageSize=5&search=natal');
  });
});

const natal: Holiday = {
  IdHoliday: 4,
  Description: 'Natal',
  StartDate: '2026-12-25',
  EndDate: '2026-12-25',
  StartTime: null,
  EndTime: null,
  AllDay: true,
  AllCompanies: false,
  Companies: [{ IdCompany: 1, Name: 'Navalha Centro' }],
};

function holidaysServer() {
  const state = { writes: [] as { method: string; url: string; body: unknown }[] };
  server.use(
    http.get(apiUrl('company'), () => HttpResponse.json([ownCompany, otherCompany])),
    http.get(apiUrl('professional-favorite-menu/'), () => HttpResponse.json([])),
    http.get(apiUrl('holiday/filter'), () => HttpResponse.json({ content: [natal], total: 1, count: 1 })),
    http.get(apiUrl('holiday/:id'), () => HttpResponse.json(natal)),
    http.post(apiUrl('holiday'), async ({ request }) => {
      state.writes.push({ method: 'POST', url: request.url, body: await request.json() });
      return HttpResponse.json({ IdHoliday: 5 }, { status: 201 });
    }),
    http.put(apiUrl('holiday/:id'), async ({ request }) => {
      state.writes.push({ method: 'PUT', url: request.url, body: await request.json() });
      return HttpResponse.json({ IdHoliday: 4 });
    }),
    http.delete(apiUrl('holiday/:id'), ({ request }) => {
      state.writes.push({ method: 'DELETE', url: request.url, body: null });
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return state;
}

describe('holidays screens', () => {
  it('creates a holiday with units chosen in the multi-select', async () => {
    const user = userEvent.setup();
    const state = holidaysServer();
    const { router } = renderApp('/dashboard/holiday/new', { session: signedInSession('ADMIN') });
    await user.type(await screen.findByLabelText('Descrição'), 'Dia do Barbeiro');
    fireEvent.change(screen.getByLabelText('Início'), { target: { value: '2026-09-06' } });
    fireEvent.change(screen.getByLabelText('Fim'), { target: { value: '2026-09-06' } });
    const units = screen.getByRole('combobox', { name: 'Empresas' });
    await user.click(units);
    await user.type(units, 'praia');
    // The list filters after the 200 ms pause.
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await user.click(screen.getByRole('option', { name: /Navalha Praia/ }));
    expect(screen.getByRole('option', { name: /Navalha Praia/ }).getAttribute('aria-selected')).toBe('true');
    await act(async () => units.blur());
    expect(within(screen.getByRole('list', { name: 'Empresas escolhidas' })).getByText('Navalha Praia')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Feriado cadastrado com sucesso!')).toBeTruthy();
    expect(state.writes[0].body).toEqual({
      description: 'Dia do Barbeiro',
      startDate: '2026-09-06',
      endDate: '2026-09-06',
      allDay: true,
      startTime: null,
      endTime: null,
      allCompanies: false,
      idsCompanies: [2],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/holiday'));
  });

  it('updates and deletes a holiday after the confirmation', async () => {
    const user = userEvent.setup();
    const state = holidaysServer();
    const { router } = renderApp('/dashboard/holiday/4', { session: signedInSession('ADMIN') });
    expect(((await screen.findByLabelText('Descrição')) as HTMLInputElement).value).toBe('Natal');
    await user.click(screen.getByLabelText('Todas as empresas'));
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('atualizado com sucesso.')).toBeTruthy();
    expect(state.writes[0]).toMatchObject({ method: 'PUT', body: { allCompanies: true, idsCompanies: [] } });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/holiday'));

    await user.click(await screen.findByText('Natal'));
    await user.click(await screen.findByRole('button', { name: 'Excluir' }));
    const dialog = screen.getByRole('dialog', { name: 'Atencão!' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByText('Feriado excluído com sucesso!')).toBeTruthy();
    expect(state.writes[1]).toMatchObject({ method: 'DELETE' });
    expect(state.writes[1].url).toMatch(/\/api\/holiday\/4$/);
  });

  it('a BARBER_LEADE reads holidays: no new, no save, no delete', async () => {
    holidaysServer();
    renderApp('/dashboard/holiday', { session: signedInSession('BARBER_LEADE') });
    expect(await screen.findByText('Natal')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Novo feriado' })).toBeNull();
    expect(screen.getAllByText('25/12/2026')).toHaveLength(2);
  });
});
