import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';
import { SAME_TIME_MESSAGE } from './ManageBookingPage';
import { DAY1, DAY2, booking, freeTimes, unit } from './onlineFixtures';
import type { OnlineBooking } from './types';

const PATH = '/agendar/1/reserva/manage-abc';
const CUTOFF = 'O prazo para alterar online terminou. Fale com a barbearia.';

function serve(current: OnlineBooking = booking) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const freeReads: { search: URLSearchParams; token: string | null }[] = [];
  let now = current;
  server.use(
    http.get(apiUrl('no-auth/online-booking/booking/manage-abc'), () => HttpResponse.json(now)),
    http.get(apiUrl('no-auth/online-booking/1'), () => HttpResponse.json(unit)),
    http.get(apiUrl('no-auth/scheduling/available-times'), ({ request }) => {
      freeReads.push({ search: new URL(request.url).searchParams, token: request.headers.get('X-Booking-Token') });
      return HttpResponse.json(freeTimes);
    }),
    http.post(apiUrl('no-auth/online-booking/booking/manage-abc/cancel'), () => {
      sent.push({ method: 'POST', path: 'cancel', body: null });
      now = { ...now, Status: 'CANCELLED', Changeable: false };
      return HttpResponse.json(now);
    }),
    http.put(apiUrl('no-auth/online-booking/booking/manage-abc'), async ({ request }) => {
      const body = (await request.json()) as { date: string; startTime: string };
      sent.push({ method: 'PUT', path: 'reschedule', body });
      now = { ...now, Date: body.date, StartTime: body.startTime, EndTime: '14:30' };
      return HttpResponse.json(now);
    }),
  );
  return { sent, freeReads, set: (next: OnlineBooking) => (now = next) };
}

afterEach(() => vi.restoreAllMocks());

describe('manage booking page', () => {
  it('shows the booking and cancels it after a confirmation', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderApp(PATH);
    expect(await screen.findByRole('heading', { name: 'Seu agendamento' })).toBeTruthy();
    expect(screen.getByText('Confirmado')).toBeTruthy();
    expect(screen.getByText('Rafael Lima')).toBeTruthy();
    expect(screen.getByText('terça-feira, 26/11/2030')).toBeTruthy();
    expect(screen.getByText(`Você pode cancelar ou remarcar até 26/11/2030 às 08:00.`)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cancelar agendamento' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancelar agendamento?' });
    // 'Voltar' keeps it.
    await user.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    expect(api.sent).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Cancelar agendamento' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancelar agendamento' }));

    expect(await screen.findByText('Agendamento cancelado.')).toBeTruthy();
    // The store tells the page of the upserted booking once per frame (RTK's auto-batching),
    // so the badge may follow the message by a frame: waited for, not read at once.
    expect(await screen.findByText('Cancelado')).toBeTruthy();
    expect(api.sent).toEqual([{ method: 'POST', path: 'cancel', body: null }]);
    expect(screen.queryByRole('button', { name: 'Cancelar agendamento' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remarcar' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Fazer novo agendamento' }).getAttribute('href')).toBe('/agendar/1');
  });

  it('after the cut-off only says to talk to the shop', async () => {
    serve({ ...booking, Changeable: false });
    renderApp(PATH);
    expect(await screen.findByText(CUTOFF)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancelar agendamento' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remarcar' })).toBeNull();
    expect((await screen.findByRole('link', { name: /WhatsApp/ })).getAttribute('href')).toBe('https://wa.me/5511987654321');
  });

  it('reschedules to another free time of the same services', async () => {
    const api = serve();
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Remarcar' }));
    const panel = screen.getByRole('region', { name: 'Remarcar' });
    // Rafael and Bruno both do Corte; the booked one, Rafael, is chosen (issue 45), not 'Sem preferência'.
    expect(within(panel).getAllByRole('radio')).toHaveLength(3);
    expect((within(panel).getByRole('radio', { name: 'Rafael Lima' }) as HTMLInputElement).checked).toBe(true);
    expect((within(panel).getByRole('radio', { name: 'Sem preferência' }) as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(api.freeReads.at(-1)?.search.get('idProfessionals')).toBe('[3]'));
    await user.click(await within(panel).findByRole('button', { name: '14:00' }));
    await user.click(within(panel).getByRole('button', { name: 'Confirmar remarcação' }));
    expect(await screen.findByText('Agendamento remarcado.')).toBeTruthy();
    expect(api.sent).toEqual([{ method: 'PUT', path: 'reschedule', body: { date: DAY1, startTime: '14:00', idProfessional: 3 } }]);
    expect(await screen.findByText('14:00 às 14:30')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Remarcar' })).toBeNull();
  });

  it("starts at 'Sem preferência' when the booked professional no longer does the services here", async () => {
    const api = serve({ ...booking, IdProfessional: 9, ProfessionalName: 'Saiu da Unidade' });
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Remarcar' }));
    const panel = screen.getByRole('region', { name: 'Remarcar' });
    await waitFor(() => expect((within(panel).getByRole('radio', { name: 'Sem preferência' }) as HTMLInputElement).checked).toBe(true));
    await waitFor(() => expect(api.freeReads.at(-1)?.search.has('idProfessionals')).toBe(false));
  });

  it("offers the booking's own time, marked 'Horário atual', with the link's token on the free times", async () => {
    const api = serve({ ...booking, Date: DAY2, StartTime: '09:00:00', EndTime: '09:30:00', IdProfessional: 4, ProfessionalName: 'Bruno Costa' });
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Remarcar' }));
    const panel = screen.getByRole('region', { name: 'Remarcar' });
    // The booking's day first (not the first day with free times), its time marked.
    const own = await within(panel).findByRole('button', { name: '09:00 Horário atual' });
    expect(within(panel).getByRole('button', { name: /27 de novembro de 2030/ }).getAttribute('aria-pressed')).toBe('true');
    expect(own.className).toContain('ob-time-current');
    expect(api.freeReads.length).toBeGreaterThan(0);
    expect(api.freeReads.every((read) => read.token === 'manage-abc')).toBe(true);
    // Not in the address: the token stays out of the logs.
    expect(api.freeReads.every((read) => !read.search.toString().includes('manage-abc'))).toBe(true);

    // Its own professional or anyone: the same time is no move.
    await user.click(own);
    await user.click(within(panel).getByRole('button', { name: 'Confirmar remarcação' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(SAME_TIME_MESSAGE);
    expect(api.sent).toEqual([]);
    await user.click(within(panel).getByRole('radio', { name: 'Bruno Costa' }));
    expect(await within(panel).findByRole('button', { name: '09:00 Horário atual' })).toBeTruthy();

    // Another professional's 10:00 of the first day is not the booking's.
    await user.click(within(panel).getByRole('radio', { name: 'Rafael Lima' }));
    // Another professional's times come from a new call: wait for its days.
    await user.click(await within(panel).findByRole('button', { name: /26 de novembro de 2030/ }));
    expect(await within(panel).findByRole('button', { name: '10:00' })).toBeTruthy();
    expect(within(panel).queryByText('Horário atual')).toBeNull();
    await user.click(within(panel).getByRole('button', { name: '14:00' }));
    await user.click(within(panel).getByRole('button', { name: 'Confirmar remarcação' }));
    expect(await screen.findByText('Agendamento remarcado.')).toBeTruthy();
    expect(api.sent).toEqual([{ method: 'PUT', path: 'reschedule', body: { date: DAY1, startTime: '14:00', idProfessional: 3 } }]);
  });

  it('a time taken meanwhile is told and no longer offered', async () => {
    serve();
    const taken = 'Este horário acabou de ser reservado. Escolha outro horário.';
    server.use(http.put(apiUrl('no-auth/online-booking/booking/manage-abc'), () => HttpResponse.json({ message: taken }, { status: 409 })));
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Remarcar' }));
    const panel = screen.getByRole('region', { name: 'Remarcar' });
    await user.click(await within(panel).findByRole('button', { name: '14:00' }));
    await user.click(within(panel).getByRole('button', { name: 'Confirmar remarcação' }));
    expect((await within(panel).findByRole('alert')).textContent).toBe(taken);
    await waitFor(() => expect(within(panel).queryByRole('button', { name: '14:00' })).toBeNull());
  });

  it('downloads a calendar file of the booking', async () => {
    serve();
    const files: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      files.push(blob);
      return 'blob:ics';
    });
    const original = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, original);
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Adicionar ao calendário' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(`agendamento-${DAY1}.ics`);
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(files[0]);
    });
    expect(text).toContain('DTSTART;TZID=America/Sao_Paulo:20301126T100000');
    expect(text).toContain('DTEND;TZID=America/Sao_Paulo:20301126T103000');
    expect(text).toContain('SUMMARY:Corte - Navalha Centro');
    expect(text.replace(/\r\n /g, '')).toContain(`URL:${window.location.origin}${PATH}`);
  });

  it('says when the link is not valid', async () => {
    server.use(
      http.get(apiUrl('no-auth/online-booking/booking/bad'), () => HttpResponse.json({ message: 'Agendamento não encontrado.' }, { status: 404 })),
    );
    renderApp('/agendar/1/reserva/bad');
    expect((await screen.findByRole('alert')).textContent).toBe('Agendamento não encontrado.');
  });
});
