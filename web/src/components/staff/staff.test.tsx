import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { makeStore } from '@/app/store';
import { signedInSession } from '@/test/fixtures';
import { apiUrl, server } from '@/test/server';
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
  return render(<Provider store={store}>{ui}</Provider>);
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
