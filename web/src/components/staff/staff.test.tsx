import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { signedInSession } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
import { Toasts } from '../Toasts';
import { ProfessionalServicesEditor, WorkingHoursEditor, type StaffTarget } from './index';

const PROFESSIONAL: StaffTarget = { kind: 'professional', idProfessional: 7 };

const week = Array.from({ length: 7 }, (_, day) => ({
  WeekDay: day,
  FirstStart: day === 2 ? '09:00' : null,
  FirstEnd: day === 2 ? '12:00' : null,
  SecondStart: null,
  SecondEnd: null,
  ThirdStart: null,
  ThirdEnd: null,
}));

const offered = [
  { IdCompanyProfessionalService: 11, IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 50, Combo: false, Status: true },
];
const catalogue = [
  { IdService: 1, Description: 'Corte de cabelo', ValueDefault: 45, TimeDefault: 30 },
  { IdService: 2, Description: 'Barba', ValueDefault: 35, TimeDefault: 25 },
];

function renderWithStore(ui: React.ReactElement) {
  const store = makeStore({ session: signedInSession('ADMIN') });
  // The toasts too: the copy tells its end with one.
  return render(
    <Provider store={store}>
      {ui}
      <Toasts />
    </Provider>,
  );
}

describe('WorkingHoursEditor', () => {
  it('shows the week read-only without canEdit', async () => {
    server.use(http.get(apiUrl('professional-working-hours/professional/7'), () => HttpResponse.json(week)));
    renderWithStore(<WorkingHoursEditor target={PROFESSIONAL} canEdit={false} />);
    const tuesday = await screen.findByRole('row', { name: /Terça-feira/ });
    expect(tuesday.textContent).toMatch('09:00 - 12:00');
    expect(screen.getAllByRole('row')).toHaveLength(8);
    expect(screen.queryByRole('button', { name: /Editar/ })).toBeNull();
  });

  it('saves one day through the professional call', async () => {
    let body: unknown;
    server.use(
      http.get(apiUrl('professional-working-hours/professional/7'), () => HttpResponse.json(week)),
      http.put(apiUrl('professional-working-hours/professional/7/day'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({});
      }),
    );
    const user = userEvent.setup();
    renderWithStore(<WorkingHoursEditor target={PROFESSIONAL} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Editar Domingo' }));
    const modal = screen.getByRole('dialog', { name: 'Horário de Domingo' });
    const first = within(within(modal).getByRole('group', { name: 'Primeiro horário' }));
    await user.type(first.getByLabelText('Início'), '0800');
    await user.type(first.getByLabelText('Fim'), '1130');
    expect((first.getByLabelText('Fim') as HTMLInputElement).value).toBe('11:30');
    await user.click(within(modal).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(body).toEqual({
      weekDay: 0,
      firstStart: '08:00',
      firstEnd: '11:30',
      secondStart: null,
      secondEnd: null,
      thirdStart: null,
      thirdEnd: null,
    });
  });
});

describe('copying a day to the other days (issue 45 point 7)', () => {
  /** The week's GET (counted) and every PUT .../day body in order; the PUTs wait for `release`. */
  function hoursServer(url: string, { refuseDay }: { refuseDay?: number } = {}) {
    const put: { weekDay: number }[] = [];
    let reads = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get(apiUrl(url), () => {
        reads += 1;
        return HttpResponse.json(week);
      }),
      http.put(apiUrl(`${url}/day`), async ({ request }) => {
        const body = (await request.json()) as { weekDay: number };
        put.push(body);
        await held;
        return body.weekDay === refuseDay
          ? HttpResponse.json({ message: 'Dia da semana inválido' }, { status: 422 })
          : HttpResponse.json({});
      }),
    );
    return { put, reads: () => reads, release: () => release() };
  }

  const tuesdayHours = { firstStart: '09:00', firstEnd: '12:00', secondStart: null, secondEnd: null, thirdStart: null, thirdEnd: null };

  it('asks, then sends the day to Monday–Saturday one at a time, with the progress, toasts and refreshes', async () => {
    const hours = hoursServer('professional-working-hours/professional/7');
    const user = userEvent.setup();
    renderWithStore(<WorkingHoursEditor target={PROFESSIONAL} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Editar Terça-feira' }));
    const modal = within(screen.getByRole('dialog', { name: 'Horário de Terça-feira' }));
    await user.click(modal.getByRole('button', { name: 'Copiar para os outros dias' }));

    const confirm = screen.getByRole('dialog', { name: 'Copiar horário' });
    expect(confirm.textContent).toContain('Copiar o horário de Terça-feira para os outros dias de trabalho?');
    expect(confirm.textContent).toContain('Os horários de Segunda-feira, Quarta-feira, Quinta-feira, Sexta-feira e Sábado serão substituídos.');
    await user.click(within(confirm).getByRole('button', { name: 'Copiar' }));

    // One request at a time: the first waits, and the dialog says where the copy is.
    await waitFor(() => expect(hours.put).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hours.put).toHaveLength(1);
    expect(modal.getByRole('status').textContent).toBe('Copiando 1 de 5…');
    expect(modal.getByRole('button', { name: 'Salvar' })).toHaveProperty('disabled', true);
    hours.release();

    expect(await screen.findByText('Horário copiado para os outros dias.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The day itself was not edited, so only the other days were sent; Sunday is left alone.
    expect(hours.put).toEqual([1, 3, 4, 5, 6].map((weekDay) => ({ weekDay, ...tuesdayHours })));
    await waitFor(() => expect(hours.reads()).toBeGreaterThan(1));
  });

  it('copies an edited Sunday: saved first, then Monday to Saturday (the my-profile call)', async () => {
    const hours = hoursServer('professional-working-hours/my-profile');
    hours.release();
    const user = userEvent.setup();
    renderWithStore(<WorkingHoursEditor target={{ kind: 'myProfile' }} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Editar Domingo' }));
    const modal = within(screen.getByRole('dialog', { name: 'Horário de Domingo' }));
    // Nothing to copy yet.
    expect(modal.getByRole('button', { name: 'Copiar para os outros dias' })).toHaveProperty('disabled', true);
    const first = within(modal.getByRole('group', { name: 'Primeiro horário' }));
    await user.type(first.getByLabelText('Início'), '0800');
    await user.type(first.getByLabelText('Fim'), '1200');
    const second = within(modal.getByRole('group', { name: 'Segundo horário' }));
    await user.type(second.getByLabelText('Início'), '1300');
    await user.type(second.getByLabelText('Fim'), '1700');
    await user.click(modal.getByRole('button', { name: 'Copiar para os outros dias' }));
    const confirm = screen.getByRole('dialog', { name: 'Copiar horário' });
    expect(confirm.textContent).toContain('Copiar o horário de Domingo para os outros dias de trabalho?');
    await user.click(within(confirm).getByRole('button', { name: 'Copiar' }));

    expect(await screen.findByText('Horário copiado para os outros dias.')).toBeTruthy();
    const body = { firstStart: '08:00', firstEnd: '12:00', secondStart: '13:00', secondEnd: '17:00', thirdStart: null, thirdEnd: null };
    expect(hours.put).toEqual([0, 1, 2, 3, 4, 5, 6].map((weekDay) => ({ weekDay, ...body })));
  });

  it('sends nothing for a day with errors or when the copy is not confirmed', async () => {
    const hours = hoursServer('professional-working-hours/professional/7');
    hours.release();
    const user = userEvent.setup();
    renderWithStore(<WorkingHoursEditor target={PROFESSIONAL} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Editar Terça-feira' }));
    const modal = within(screen.getByRole('dialog', { name: 'Horário de Terça-feira' }));
    const first = within(modal.getByRole('group', { name: 'Primeiro horário' }));
    await user.clear(first.getByLabelText('Fim'));
    await user.type(first.getByLabelText('Fim'), '0800');
    await user.click(modal.getByRole('button', { name: 'Copiar para os outros dias' }));
    expect(await modal.findByText('Horário final menor que inicial')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Copiar horário' })).toBeNull();

    await user.clear(first.getByLabelText('Fim'));
    await user.type(first.getByLabelText('Fim'), '1100');
    await user.click(modal.getByRole('button', { name: 'Copiar para os outros dias' }));
    const confirm = screen.getByRole('dialog', { name: 'Copiar horário' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog', { name: 'Copiar horário' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Horário de Terça-feira' })).toBeTruthy();
    expect(hours.put).toEqual([]);
  });

  it('stops at a refused day, keeping the dialog open without the success toast', async () => {
    const hours = hoursServer('professional-working-hours/professional/7', { refuseDay: 4 });
    hours.release();
    const user = userEvent.setup();
    renderWithStore(<WorkingHoursEditor target={PROFESSIONAL} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Editar Terça-feira' }));
    const modal = within(screen.getByRole('dialog', { name: 'Horário de Terça-feira' }));
    await user.click(modal.getByRole('button', { name: 'Copiar para os outros dias' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Copiar horário' })).getByRole('button', { name: 'Copiar' }));
    // The base query toasts the refusal; the copy stops there.
    expect(await screen.findByText('Dia da semana inválido')).toBeTruthy();
    await waitFor(() => expect(modal.getByRole('status').textContent).toBe(''));
    expect(hours.put.map((body) => body.weekDay)).toEqual([1, 3, 4]);
    expect(screen.queryByText('Horário copiado para os outros dias.')).toBeNull();
    expect(modal.getByRole('button', { name: 'Salvar' })).toHaveProperty('disabled', false);
  });
});

describe('ProfessionalServicesEditor', () => {
  it('lists the services read-only without canEdit', async () => {
    server.use(http.get(apiUrl('professional-service/professional/7'), () => HttpResponse.json(offered)));
    renderWithStore(<ProfessionalServicesEditor target={PROFESSIONAL} canEdit={false} />);
    const row = await screen.findByRole('row', { name: /Corte de cabelo/ });
    expect(row.textContent).toMatch('30 min');
    expect(row.textContent).toMatch(/R\$\s50,00/);
    expect(row.textContent).toMatch('Não');
    expect(row.textContent).toMatch('Ativo');
    expect(screen.queryByRole('button', { name: 'Novo Serviço' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Editar/ })).toBeNull();
  });

  it('says when there is no service', async () => {
    server.use(http.get(apiUrl('professional-service/my-profile'), () => HttpResponse.json([])));
    renderWithStore(<ProfessionalServicesEditor target={{ kind: 'myProfile' }} canEdit />);
    expect(await screen.findByText('Nenhum serviço encontrado')).toBeTruthy();
  });

  it('adds a service pre-filled from the catalogue, with an Idempotency-Key', async () => {
    let body: unknown;
    let key: string | null = null;
    server.use(
      http.get(apiUrl('professional-service/professional/7'), () => HttpResponse.json(offered)),
      http.get(apiUrl('service/active'), () => HttpResponse.json(catalogue)),
      http.post(apiUrl('professional-service/professional/7'), async ({ request }) => {
        body = await request.json();
        key = request.headers.get('Idempotency-Key');
        return HttpResponse.json({ IdCompanyProfessionalService: 12 }, { status: 201 });
      }),
    );
    const user = userEvent.setup();
    renderWithStore(<ProfessionalServicesEditor target={PROFESSIONAL} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Novo Serviço' }));
    const modal = within(screen.getByRole('dialog', { name: 'Novo Serviço' }));
    // A service already offered is not offered again.
    await waitFor(() => expect(modal.getByRole('option', { name: 'Barba' })).toBeTruthy());
    expect(modal.queryByRole('option', { name: 'Corte de cabelo' })).toBeNull();
    await user.selectOptions(modal.getByLabelText('Serviço'), 'Barba');
    expect((modal.getByLabelText('Tempo (minutos)') as HTMLInputElement).value).toBe('25');
    expect((modal.getByLabelText('Valor') as HTMLInputElement).value).toBe('R$\u00a035,00');
    await user.click(modal.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(body).toEqual({ idService: 2, time: 25, value: 35, status: true, intervalAfter: 0 });
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('edits a row through the professional call', async () => {
    let body: unknown;
    server.use(
      http.get(apiUrl('professional-service/professional/7'), () => HttpResponse.json(offered)),
      http.get(apiUrl('service/active'), () => HttpResponse.json(catalogue)),
      http.put(apiUrl('professional-service/11/professional/7'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({});
      }),
    );
    const user = userEvent.setup();
    renderWithStore(<ProfessionalServicesEditor target={PROFESSIONAL} canEdit />);
    await user.click(await screen.findByRole('button', { name: 'Editar Corte de cabelo' }));
    const modal = within(screen.getByRole('dialog', { name: 'Editar Serviço' }));
    const time = modal.getByLabelText('Tempo (minutos)');
    await user.clear(time);
    await user.type(time, '1000');
    expect((time as HTMLInputElement).value).toBe('100');
    await user.selectOptions(modal.getByLabelText('Status'), 'Inativo');
    // 'Intervalo após' (issue 45): at most 120 minutes.
    const interval = modal.getByLabelText('Intervalo após (minutos)');
    await user.type(interval, '150');
    expect((interval as HTMLInputElement).value).toBe('15');
    await user.click(modal.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(body).toEqual({ idService: 1, time: 100, value: 50, status: false, intervalAfter: 15 });
  });
});
