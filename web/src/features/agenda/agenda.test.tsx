import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DAY, NEXT_DAY, agendaServer, appointment, freeTimes } from '@/test/agendaServer';
import type { RootState } from '@/app/store';
import { initialUiState } from '@/state/uiSlice';
import { ownCompany, signedInSession } from '@/test/fixtures';
import { editToTimeStep, moveAndConfirm, loadAgendaFirst, renderAgenda } from '@/test/agendaSteps';
import { renderApp } from '@/test/render';
import { apiUrl, server } from '@/test/server';

// 12:00 UTC is 09:00 on the unit's clock (UTC-3), on DAY.
const NOW = new Date(`${DAY}T12:00:00Z`);

const card = (name: string) => screen.getByRole('article', { name: new RegExp(name) });
const options = async (user: ReturnType<typeof userEvent.setup>, id: number) =>
  user.click(await screen.findByRole('button', { name: `Opções do agendamento N.º ${id}` }));

loadAgendaFirst();

beforeEach(() => {
  // Only Date is faked: timers, msw and user-event run normally.
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  window.innerWidth = 1280;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('agenda, list view', () => {
  it("shows today's appointments of the unit as cards", async () => {
    const agenda = agendaServer([
      appointment(1, { Observation: 'Máquina 2' }),
      appointment(2, { StartTime: '13:00:00', EndTime: '14:00:00', Services: ['Barba', 'Corte de cabelo'], IdProfessional: 5 }),
    ]);
    renderAgenda();
    expect(await screen.findByRole('heading', { name: 'Agenda' })).toBeTruthy();
    const first = await screen.findByRole('article', { name: /N\.º 1:/ });
    expect(within(first).getByText('10:00 - 10:30')).toBeTruthy();
    expect(within(first).getByText('(11) 98765-0100')).toBeTruthy();
    expect(within(first).getByText('Máquina 2')).toBeTruthy();
    const second = card('N.º 2:');
    expect(within(second).getByText('Barba, Corte de cabelo')).toBeTruthy();
    // Empty observations show as '-'.
    expect(within(second).getAllByText('-').length).toBeGreaterThan(0);
    expect(within(second).getByText('Eduardo Barbeiro')).toBeTruthy();

    const read = agenda.dayReads()[0].search;
    expect(Object.fromEntries(read)).toEqual({ idCompany: '1', date: DAY, status: '0' });
    expect(screen.getByLabelText('Hora atual').textContent).toMatch(/^09:00:\d{2}$/);
    expect(screen.getByText('Hoje: 24/11/2026')).toBeTruthy();
  });

  it('moves between days; an empty day says so and offers no view toggle', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    expect(screen.getByRole('button', { name: 'Linha do tempo' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Próximo dia' }));
    expect(await screen.findByText('Nenhum agendamento encontrado...')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Linha do tempo' })).toBeNull();
    expect(agenda.dayReads().at(-1)!.search.get('date')).toBe(NEXT_DAY);
    expect(screen.getByRole('button', { name: /Dia exibido: quarta-feira, 25 de novembro de 2026/ })).toBeTruthy();

    // The date picker: pt-BR, weeks from Sunday.
    await user.click(screen.getByRole('button', { name: /Dia exibido/ }));
    const picker = screen.getByRole('dialog', { name: 'Selecione uma data' });
    expect(within(picker).getAllByRole('columnheader')[0].textContent).toBe('Dom');
    await user.click(within(picker).getByRole('button', { name: '24 de novembro de 2026' }));
    expect(await screen.findByRole('article', { name: /N\.º 1:/ })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before cancelling, then shows the change at once with the position of the command', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda();
    await options(user, 1);
    await user.click(screen.getByRole('menuitem', { name: 'Cancelar' }));
    const dialog = screen.getByRole('dialog', { name: 'Atencão!' });
    expect(within(dialog).getByText('Deseja realmente excluir o agendamento?')).toBeTruthy();
    expect(within(dialog).getByText('N.º 1 - Rafael Araújo - 10:00')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));

    expect(await screen.findByText('Agendamento N.º 1 excluído com sucesso!')).toBeTruthy();
    expect(within(card('N.º 1:')).getByText('Cancelado')).toBeTruthy();
    // Cancelled: no options any more.
    expect(screen.queryByRole('button', { name: 'Opções do agendamento N.º 1' })).toBeNull();
    await waitFor(() => expect(agenda.dayReads().at(-1)!.headers.get('X-Navalha-Position')).toBe(agenda.lastPosition()));
  });

  it("shows another desk's booking when the live stream says the agenda changed", async () => {
    const agenda = agendaServer();
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    await waitFor(() => expect(agenda.openStreams()).toBe(1));
    const reads = agenda.dayReads().length;
    // Booked at another desk: the list knows nothing of it until the stream speaks.
    agenda.items.set(2, appointment(2, { StartTime: '15:00:00', EndTime: '15:30:00', UserName: 'Cliente do Balcão' }));
    agenda.pushChange('agenda');
    expect(await screen.findByRole('article', { name: /N\.º 2:/ })).toBeTruthy();
    expect(agenda.dayReads().length).toBe(reads + 1);
    // A change of a model the day does not show fetches nothing of it.
    agenda.pushChange('favorite_menu');
    agenda.pushChange('agenda');
    await waitFor(() => expect(agenda.dayReads().length).toBe(reads + 2));
  });

  it('confirms optimistically, before the server answers', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda();
    const release = agenda.holdConfirms();
    await options(user, 1);
    await user.click(screen.getByRole('menuitem', { name: 'Confirmar' }));
    expect(await within(card('N.º 1:')).findByText('Confirmado pelo cliente')).toBeTruthy();
    expect(agenda.items.get(1)!.Confirmation).toBe(false);
    release();
    expect(await screen.findByText('Agendamento N.º 1 confirmado com sucesso!')).toBeTruthy();
    await options(user, 1);
    expect(screen.getByRole('menuitem', { name: 'Confirmar' }).hasAttribute('disabled')).toBe(true);
  });

  it("links to WhatsApp with 55 and warns when the number is not WhatsApp", async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    agendaServer([appointment(1), appointment(2, { StartTime: '11:00:00', EndTime: '11:30:00', UserWhatsApp: false })]);
    renderAgenda();
    const link = within(await screen.findByRole('article', { name: /N\.º 1:/ })).getByRole('link', {
      name: 'Enviar confirmação pelo WhatsApp',
    });
    expect(link.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/5511987650100\?text=/);
    expect(decodeURIComponent(link.getAttribute('href')!.split('text=')[1])).toContain('Navalha Centro');

    await user.click(within(card('N.º 2:')).getByRole('link', { name: 'Enviar confirmação pelo WhatsApp' }));
    const dialog = screen.getByRole('dialog', { name: 'Número não é WhatsApp' });
    expect(within(dialog).getByText('O telefone escolhido não foi cadastrado pelo usuário como WhatsApp.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Enviar mesmo assim' }));
    expect(open).toHaveBeenCalledWith(expect.stringMatching(/^https:\/\/wa\.me\/5511987650101/), '_blank', 'noopener');
  });

  it('does not edit an appointment that has started', async () => {
    const user = userEvent.setup();
    agendaServer([appointment(1, { StartTime: '08:30:00', EndTime: '09:30:00' })]);
    renderAgenda();
    await options(user, 1);
    const edit = screen.getByRole('menuitem', { name: 'Editar' });
    expect(edit.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('tooltip').textContent).toBe('Não é possível editar um agendamento passado');
  });

  it('links a subscriber to their subscription', async () => {
    agendaServer([appointment(1, { SubscriptionUser: [{ IdSubscriptionUser: 33, IdSubscriptionDetail: 3, PlanName: 'Clube Ouro', InternalStatus: 'ACTIVE' }] })]);
    renderAgenda();
    const link = await screen.findByRole('link', { name: 'Assinante do clube' });
    expect(link.getAttribute('href')).toBe('/dashboard/subscription-user-detail-form/33');
  });
});

describe('agenda filters and roles', () => {
  it('lets an admin filter by professional and status', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1), appointment(2, { IdProfessional: 5, StartTime: '11:00:00' })]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 2:/ });
    await user.click(screen.getByRole('combobox', { name: 'Profissional' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Todos',
      'Caio Líder',
      'Diego Barbeiro',
      'Eduardo Barbeiro',
    ]);
    await user.click(screen.getByRole('option', { name: 'Diego Barbeiro' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: /N\.º 2:/ })).toBeNull());
    expect(agenda.dayReads().at(-1)!.search.get('idProfessional')).toBe('4');

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Todos', 'Confirmado', 'Cancelado']);
    await user.click(screen.getByRole('option', { name: 'Cancelado' }));
    expect(await screen.findByText('Nenhum agendamento encontrado...')).toBeTruthy();
    expect(agenda.dayReads().at(-1)!.search.get('status')).toBe('2');
  });

  it('filters by a client found by name', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1), appointment(2, { StartTime: '11:00:00' })]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 2:/ });
    const box = screen.getByRole('combobox', { name: 'Cliente' });
    await user.click(box);
    await user.type(box, 'thiago');
    await user.click(await screen.findByRole('option', { name: /Thiago Nogueira/ }));
    await waitFor(() => expect(screen.queryByRole('article', { name: /N\.º 1:/ })).toBeNull());
    expect(agenda.dayReads().at(-1)!.search.get('idUser')).toBe('2');
    expect((box as HTMLInputElement).value).toBe('Thiago Nogueira');
  });

  it('keeps a BARBER1 on their own agenda and unit', async () => {
    const agenda = agendaServer([appointment(1)]);
    renderAgenda('BARBER1', { idProfessional: 4 });
    await screen.findByRole('article', { name: /N\.º 1:/ });
    const professional = screen.getByRole('combobox', { name: 'Profissional' }) as HTMLInputElement;
    expect(professional.value).toBe('Diego Barbeiro');
    expect(professional.disabled).toBe(true);
    expect((screen.getByRole('combobox', { name: 'Barbearia' }) as HTMLInputElement).disabled).toBe(true);
    expect(agenda.dayReads()[0].search.get('idProfessional')).toBe('4');
  });

  it('lets a BARBER_LEADE choose professionals but not the unit', async () => {
    agendaServer([appointment(1)]);
    renderAgenda('BARBER_LEADE', { idProfessional: 3 });
    await screen.findByRole('article', { name: /N\.º 1:/ });
    expect((screen.getByRole('combobox', { name: 'Profissional' }) as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByRole('combobox', { name: 'Profissional' }) as HTMLInputElement).value).toBe('Todos');
    expect((screen.getByRole('combobox', { name: 'Barbearia' }) as HTMLInputElement).disabled).toBe(true);
  });
});

describe("the agenda's unit (issue 45)", () => {
  const savassi = { IdCompany: 2, Name: 'Navalha Savassi', City: 'Belo Horizonte', State: 'MG', Status: true };

  /** The agenda of an ADMIN of Centro and Savassi, who last chose `remembered` in it. */
  function renderRemembering(agendaUnits: Record<string, string>) {
    return renderApp('/dashboard/scheduling', {
      session: signedInSession('ADMIN', { companies: [ownCompany, savassi] }),
      ui: { ...initialUiState, agendaUnits } as RootState['ui'],
    });
  }
  const unitBox = () => screen.getByRole('combobox', { name: 'Barbearia' }) as HTMLInputElement;

  it('opens on the unit the user last chose in the agenda, and remembers another choice', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    const { store } = renderRemembering({ 7: '2', 9: '1' });
    await waitFor(() => expect(unitBox().value).toBe('Navalha Savassi'));
    await waitFor(() => expect(agenda.dayReads().at(-1)!.search.get('idCompany')).toBe('2'));
    expect(store.getState().session.selectedCompany?.IdCompany).toBe(2);

    await user.click(unitBox());
    await user.click(screen.getByRole('option', { name: /Navalha Centro/ }));
    expect(unitBox().value).toBe('Navalha Centro');
    expect(store.getState().session.selectedCompany?.IdCompany).toBe(1);
    // Per user: another user's memory stays as it was.
    expect(store.getState().ui.agendaUnits).toEqual({ 7: '1', 9: '1' });
  });

  it("opens as before when the remembered unit is no longer the user's, or nothing is remembered", async () => {
    const agenda = agendaServer([appointment(1)]);
    const { store } = renderRemembering({ 7: '5' });
    expect(await screen.findByRole('article', { name: /N\.º 1:/ })).toBeTruthy();
    await waitFor(() => expect(store.getState().session.companyList).toHaveLength(2));
    expect(unitBox().value).toBe('Navalha Centro');
    expect(agenda.dayReads().every((read) => read.search.get('idCompany') === '1')).toBe(true);
    // Opening chooses nothing: only the user's own choice is remembered.
    expect(store.getState().ui.agendaUnits).toEqual({ 7: '5' });
  });
});

describe('agenda, past view', () => {
  it('shows ADMIN the day as it stood at an earlier instant, read-only, and goes back to now', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda();
    await options(user, 1);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Visão do passado' }));

    const bar = await screen.findByRole('region', { name: 'Visão do passado' });
    expect(within(bar).getByRole('status').textContent).toBe(
      `A agenda de 24/11/2026 como estava em 24/11/2026 às 08:00:00. Somente leitura: nada pode ser alterado aqui.`,
    );
    await waitFor(() => expect(agenda.dayReads().at(-1)!.search.get('asOf')).toBe(`${DAY}T08:00:00`));
    await screen.findByRole('article', { name: /N\.º 1:/ });
    expect(screen.queryByRole('button', { name: 'Opções do agendamento N.º 1' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Novo agendamento' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Enviar confirmação pelo WhatsApp' })).toBeNull();
    // The audit stays at hand: 'Histórico' on its own.
    expect(screen.getByRole('button', { name: 'Histórico do agendamento N.º 1' })).toBeTruthy();

    await user.click(within(bar).getByRole('button', { name: 'Um dia antes' }));
    await waitFor(() => expect(agenda.dayReads().at(-1)!.search.get('asOf')).toBe('2026-11-23T08:00:00'));
    await user.click(within(bar).getByRole('button', { name: 'Um dia depois' }));
    // The input leaves zero seconds out of its value.
    expect((within(bar).getByLabelText('Como estava em') as HTMLInputElement).value).toBe(`${DAY}T08:00`);
    // Forward stops at now (09:00 on the unit's clock), and then cannot go further.
    await user.click(within(bar).getByRole('button', { name: 'Uma hora depois' }));
    await user.click(within(bar).getByRole('button', { name: 'Uma hora depois' }));
    await waitFor(() => expect(agenda.dayReads().at(-1)!.search.get('asOf')).toBe(`${DAY}T09:00:00`));
    expect((within(bar).getByRole('button', { name: 'Uma hora depois' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(bar).getByLabelText('Como estava em') as HTMLInputElement).value).toBe(`${DAY}T09:00`);

    await user.click(within(bar).getByRole('button', { name: 'Voltar ao presente' }));
    expect(screen.queryByRole('region', { name: 'Visão do passado' })).toBeNull();
    // The present's list comes back with its options (from the cache: no new read).
    expect(await screen.findByRole('button', { name: 'Opções do agendamento N.º 1' })).toBeTruthy();
  });

  it('is not offered to other roles (the server refuses them), nor the history', async () => {
    agendaServer([appointment(1), appointment(2, { StartTime: '11:00:00', EndTime: '11:30:00', Status: false })]);
    renderAgenda('ATTENDANT');
    await screen.findByRole('article', { name: /N\.º 1:/ });
    expect(screen.queryByRole('button', { name: 'Visão do passado' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Histórico do agendamento/ })).toBeNull();
  });

  it("gives ADMIN a cancelled appointment's history, which has no options menu", async () => {
    const user = userEvent.setup();
    agendaServer([appointment(2, { Status: false })]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 2:/ });
    expect(screen.queryByRole('button', { name: 'Opções do agendamento N.º 2' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Histórico do agendamento N.º 2' }));
    expect(await screen.findByRole('dialog', { name: 'Histórico do agendamento N.º 2' })).toBeTruthy();
  });
});

describe('agenda, timeline view', () => {
  it('draws a coloured column per professional, lanes for overlaps and the current-time line today', async () => {
    const user = userEvent.setup();
    agendaServer([
      appointment(1, { StartTime: '10:00:00', EndTime: '11:00:00' }),
      appointment(2, { StartTime: '10:30:00', EndTime: '11:30:00' }),
      appointment(3, { StartTime: '10:00:00', EndTime: '10:30:00', IdProfessional: 5 }),
    ]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));

    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    expect(within(timeline).getAllByRole('list').map((l) => l.getAttribute('aria-label'))).toEqual([
      'Agenda de Caio Líder',
      'Agenda de Diego Barbeiro',
      'Agenda de Eduardo Barbeiro',
    ]);
    const diego = within(timeline).getByRole('list', { name: 'Agenda de Diego Barbeiro' });
    const [first, second] = within(diego).getAllByRole('listitem');
    expect([first.style.top, first.style.height, first.style.left, first.style.width]).toEqual(['122px', '122px', '0%', '50%']);
    expect([second.style.left, second.style.width]).toEqual(['50%', '50%']);
    const eduardo = within(within(timeline).getByRole('list', { name: 'Agenda de Eduardo Barbeiro' })).getByRole('listitem');
    expect(eduardo.style.width).toBe('100%');
    expect(within(timeline).getByText('9:00')).toBeTruthy();
    expect(within(timeline).getByText('21:00')).toBeTruthy();
    // 09:00 today: the line is at the top of the grid.
    expect(screen.getByTestId('now-line').style.top).toBe('0px');

    // Another day without appointments: the grid stays, to take clicks on its empty slots,
    // and has no current-time line.
    await user.click(screen.getByRole('button', { name: 'Próximo dia' }));
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Linha do tempo' })).queryAllByRole('listitem')).toEqual([]));
    expect(screen.queryByTestId('now-line')).toBeNull();
    expect(screen.queryByText('Nenhum agendamento encontrado...')).toBeNull();
  });
});

describe("the timeline's 'Intervalo após' (issue 45)", () => {
  const INTERVAL = /^Intervalo após o atendimento/;

  it('hatches the minutes after an active appointment, in the week too, and takes no click as an empty slot', async () => {
    const user = userEvent.setup();
    agendaServer([
      appointment(1, { StartTime: '10:00:00', EndTime: '10:30:00', IntervalAfter: 15, Services: ['Pigmentação'] }),
      appointment(2, { StartTime: '13:00:00', EndTime: '13:30:00', IntervalAfter: 0 }),
      appointment(3, { StartTime: '15:00:00', EndTime: '15:30:00', IntervalAfter: 15, Status: false }),
    ]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));

    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    const diego = within(timeline).getByRole('list', { name: 'Agenda de Diego Barbeiro' });
    // Only no. 1's: none for no. 2 (no interval) nor no. 3 (cancelled).
    const [interval, ...others] = within(diego).getAllByRole('listitem', { name: INTERVAL });
    expect(others).toEqual([]);
    expect(interval.getAttribute('aria-label')).toBe('Intervalo após o atendimento: até 10:45');
    expect(interval.getAttribute('title')).toBe('Intervalo após o atendimento: até 10:45');
    // Right below the card (10:30 is 182 px down), 15 minutes tall, in the card's lane and colour.
    expect([interval.style.top, interval.style.height, interval.style.left, interval.style.width]).toEqual(['182px', '30px', '0%', '100%']);
    expect(interval.style.getPropertyValue('--interval-color')).toBe('#FF9800');
    expect(within(timeline).getByRole('listitem', { name: /N\.º 1:/ }).style.height).toBe('60px');

    // Not an empty slot: a click on it opens nothing, where a click on the column does.
    await user.click(interval);
    expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).toBeNull();
    await user.click(diego);
    expect(await screen.findByRole('dialog', { name: 'Novo agendamento' })).toBeTruthy();
    await user.click(within(screen.getByRole('dialog', { name: 'Novo agendamento' })).getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).toBeNull());

    // The week of Diego draws it the same way.
    await user.click(screen.getByRole('combobox', { name: 'Profissional' }));
    await user.click(screen.getByRole('option', { name: 'Diego Barbeiro' }));
    await user.click(screen.getByRole('button', { name: 'Semana' }));
    const week = await screen.findByRole('region', { name: 'Semana de Diego Barbeiro' });
    await within(week).findByRole('listitem', { name: /N\.º 1:/ });
    expect(within(week).getAllByRole('listitem', { name: INTERVAL }).map((block) => block.getAttribute('aria-label'))).toEqual([
      'Intervalo após o atendimento: até 10:45',
    ]);
  });
});

describe('the grid shows when people work (issue 45)', () => {
  const OFF_HOURS = 'Horário fora do expediente do profissional.';
  /** 'top' and 'height' of a time span on the grid: 9:00 is 0, 122 px an hour row, 2 px a minute. */
  const y = (time: string) => {
    const [h, m] = time.split(':').map(Number);
    const offset = h * 60 + m - 9 * 60;
    return Math.floor(offset / 60) * 122 + (offset % 60) * 2;
  };
  const shadesIn = (column: HTMLElement) =>
    [...column.querySelectorAll<HTMLElement>('[data-shade]')].map((shade) => [shade.dataset.shade, shade.style.top, shade.style.height]);

  it("shades the professional's break and off hours; a click at lunch says why and opens nothing, one at 10:00 opens the wizard", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    const column = (name: string) => within(timeline).getByRole('list', { name: `Agenda de ${name}` });

    // Lunch (12:00-13:00) and after 19:00; at 09:00 sharp nothing of today is past yet.
    await waitFor(() =>
      expect(shadesIn(column('Diego Barbeiro'))).toEqual([
        ['off', `${y('12:00')}px`, '122px'],
        ['off', `${y('19:00')}px`, '244px'],
      ]),
    );
    expect(Object.fromEntries(agenda.calls.find((c) => c.path === 'scheduling/company/1/working-times')!.search)).toEqual({ date: DAY });
    // The shades are not appointments: the column's items are still its cards.
    expect(within(column('Diego Barbeiro')).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Agendamento N\.º 1:/),
    ]);

    // 12:15, on the lunch shade: the server's message at once, no wizard.
    const lunch = column('Caio Líder').querySelector<HTMLElement>('[data-shade="off"]')!;
    fireEvent.click(lunch, { clientY: y('12:15') });
    expect(await screen.findByText(OFF_HOURS)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).toBeNull();

    // 10:00 is Caio's working time: 'Novo agendamento' there.
    fireEvent.click(column('Caio Líder'), { clientY: y('10:00') });
    const modal = await screen.findByRole('dialog', { name: 'Novo agendamento' });
    expect(within(modal).getByText('24/11/2026 às 10:00')).toBeTruthy();

    // Caio has no free 'Corte de cabelo' starting at 10:00: the time step says so.
    await user.click(await within(modal).findByRole('row', { name: /Rafael Araújo/ }));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await user.click(within(modal).getByRole('checkbox', { name: /Corte de cabelo/ }));
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    expect((await within(modal).findByRole('alert')).textContent).toBe('Os serviços escolhidos não cabem neste horário. Escolha outro.');
    expect(within(modal).getByRole('button', { name: 'Confirmar' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(modal).getByRole('button', { name: '11:00' }));
    expect(within(modal).queryByRole('alert')).toBeNull();
    expect(within(modal).getByRole('button', { name: 'Confirmar' }).hasAttribute('disabled')).toBe(false);
  });

  it('chooses the clicked time when the services fit there, and says nothing', async () => {
    const user = userEvent.setup();
    agendaServer([appointment(1)]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const diego = within(screen.getByRole('region', { name: 'Linha do tempo' })).getByRole('list', { name: 'Agenda de Diego Barbeiro' });
    await waitFor(() => expect(diego.querySelector('[data-shade]')).not.toBeNull());
    fireEvent.click(diego, { clientY: y('14:15') });
    const modal = await screen.findByRole('dialog', { name: 'Novo agendamento' });
    await user.click(await within(modal).findByRole('row', { name: /Rafael Araújo/ }));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await user.click(within(modal).getByRole('checkbox', { name: /Corte de cabelo/ }));
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await waitFor(() => expect(within(modal).getByRole('button', { name: '14:15' }).getAttribute('aria-pressed')).toBe('true'));
    expect(within(modal).queryByRole('alert')).toBeNull();
  });

  it("shades the week: the past day, the closed Sunday, each day's break; a click on the past says so", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    await user.click(screen.getByRole('combobox', { name: 'Profissional' }));
    await user.click(screen.getByRole('option', { name: 'Diego Barbeiro' }));
    await user.click(screen.getByRole('button', { name: 'Semana' }));
    const week = await screen.findByRole('region', { name: 'Semana de Diego Barbeiro' });
    const day = (label: string) => within(week).getByRole('list', { name: label });

    await waitFor(() => expect(shadesIn(day('Dom 29/11, 29/11/2026'))).toEqual([['closed', '0px', '1464px']]));
    expect(within(day('Dom 29/11, 29/11/2026')).getByText('Fechado')).toBeTruthy();
    // Monday is yesterday: past all day (Diego is off that day too).
    expect(shadesIn(day('Seg 23/11, 23/11/2026'))).toEqual([['past', '0px', '1464px']]);
    expect(shadesIn(day('Sex 27/11, 27/11/2026')).map(([kind, top]) => [kind, top])).toEqual([
      ['off', `${y('12:00')}px`],
      ['off', `${y('19:00')}px`],
    ]);
    expect(Object.fromEntries(agenda.calls.filter((c) => c.path === 'scheduling/company/1/working-times').at(-1)!.search)).toEqual({
      date: '2026-11-23',
      dateEnd: '2026-11-29',
    });

    fireEvent.click(day('Seg 23/11, 23/11/2026'), { clientY: y('10:00') });
    expect(await screen.findByText('Não é possível agendar em um horário passado')).toBeTruthy();
    fireEvent.click(day('Dom 29/11, 29/11/2026'), { clientY: y('10:00') });
    expect(await screen.findByText('A barbearia está fechada neste horário.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Novo agendamento' })).toBeNull();
  });
});

describe("'Cancelar online desta origem' (issue 39)", () => {
  it('lets the front desk cancel the online bookings of one e-mail, mobile or connection, with a toast', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([
      appointment(1, { Online: true, StartTime: '10:00:00', EndTime: '10:30:00', IdUser: 7 }),
      appointment(2, { Online: true, StartTime: '11:00:00', EndTime: '11:30:00', IdUser: 7 }),
      appointment(3, { StartTime: '12:00:00', EndTime: '12:30:00', IdUser: 7 }),
    ]);
    renderAgenda('ATTENDANT');
    // Not on a booking made by staff.
    await options(user, 3);
    expect(screen.queryByRole('menuitem', { name: 'Cancelar online desta origem' })).toBeNull();
    await user.keyboard('{Escape}');

    await options(user, 1);
    await user.click(screen.getByRole('menuitem', { name: 'Cancelar online desta origem' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancelar agendamentos online' });
    expect(dialog.textContent).toContain('feitos com o mesmo e-mail deste cliente');
    await user.click(within(dialog).getByRole('button', { name: 'Mesma conexão' }));
    expect(dialog.textContent).toContain('feitos da mesma conexão de internet que este');
    expect(dialog.textContent).toContain('Cada cliente recebe um e-mail avisando do cancelamento');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar agendamentos' }));
    await waitFor(() => expect(agenda.calls.map((c) => c.path)).toContain('scheduling/1/cancel-online-origin'));
    expect(await screen.findByText('2 agendamentos online cancelados.')).toBeTruthy();
    const sweep = agenda.calls.find((call) => call.path === 'scheduling/1/cancel-online-origin')!;
    expect([sweep.method, sweep.body]).toEqual(['POST', { by: 'ADDRESS' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancelar agendamentos online' })).toBeNull());
    // The list is read again: the swept ones show cancelled, the staff booking does not.
    await waitFor(() => expect(card('N.º 1:').className).toContain('appointment-cancelled'));
    expect(card('N.º 2:').className).toContain('appointment-cancelled');
    expect(card('N.º 3:').className).not.toContain('appointment-cancelled');
  });

  it('is not offered to the roles the server refuses', async () => {
    const user = userEvent.setup();
    agendaServer([appointment(1, { Online: true })]);
    renderAgenda('BARBER1', { idProfessional: 4 });
    await options(user, 1);
    expect(screen.getByRole('menuitem', { name: 'Cancelar' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Cancelar online desta origem' })).toBeNull();
  });
});

describe("the appointment's attendance and comanda (issue 41)", () => {
  const menuItems = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

  it("shows each state as a badge on the card and on the timeline's block", async () => {
    const user = userEvent.setup();
    agendaServer([
      appointment(1, { StartTime: '08:00:00', EndTime: '08:30:00', Attendance: 'NO_SHOW' }),
      appointment(2, { StartTime: '08:30:00', EndTime: '09:00:00', Attendance: 'ATTENDED', IdComanda: 31, Confirmation: true }),
      appointment(3, { Attendance: 'ARRIVED' }),
      appointment(4, { StartTime: '11:00:00', EndTime: '11:30:00' }),
    ]);
    renderAgenda();
    const badges = (id: number) =>
      [...card(`N.º ${id}:`).querySelectorAll('.appointment-badges .badge')].map((badge) => badge.textContent);
    await screen.findByRole('article', { name: /N\.º 1:/ });
    expect(badges(1)).toEqual(['Não compareceu']);
    expect(badges(2)).toEqual(['Confirmado pelo cliente', 'Atendido']);
    expect(badges(3)).toEqual(['Cliente chegou']);
    expect(badges(4)).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    expect(within(timeline).getByRole('listitem', { name: /N\.º 1:/ }).textContent).toContain('Não compareceu · Corte de cabelo');
  });

  it("lets the front desk mark 'Não compareceu' once it started, and undo it the same day", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1, { StartTime: '08:30:00', EndTime: '09:30:00' })]);
    renderAgenda('ATTENDANT');
    await options(user, 1);
    // Started: no 'Confirmar' any more (the server refuses it).
    expect(menuItems()).toEqual(['Cancelar', 'Editar', 'Cliente chegou', 'Não compareceu', 'Abrir comanda']);
    await user.click(screen.getByRole('menuitem', { name: 'Não compareceu' }));
    expect(await within(card('N.º 1:')).findByText('Não compareceu')).toBeTruthy();
    expect(await screen.findByText("Agendamento N.º 1 marcado como 'Não compareceu'.")).toBeTruthy();
    expect(agenda.calls.find((call) => call.path === 'scheduling/1/no-show')!.method).toBe('POST');

    await waitFor(() => expect(agenda.items.get(1)!.Attendance).toBe('NO_SHOW'));
    await options(user, 1);
    expect(menuItems()).toEqual(['Cancelar', 'Editar', 'Desfazer não compareceu']);
    await user.click(screen.getByRole('menuitem', { name: 'Desfazer não compareceu' }));
    expect(await screen.findByText("'Não compareceu' desfeito no agendamento N.º 1.")).toBeTruthy();
    await waitFor(() => expect(within(card('N.º 1:')).queryByText('Não compareceu')).toBeNull());
    expect(agenda.calls.filter((call) => call.path === 'scheduling/1/no-show').map((call) => call.method)).toEqual(['POST', 'DELETE']);
  });

  it("takes back a refused 'Não compareceu' and shows the server's message", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1, { StartTime: '08:30:00', EndTime: '09:30:00' })]);
    renderAgenda();
    await options(user, 1);
    // Another desk recorded the arrival meanwhile.
    agenda.items.get(1)!.Attendance = 'ARRIVED';
    await user.click(screen.getByRole('menuitem', { name: 'Não compareceu' }));
    expect(await screen.findByText("O cliente chegou: não é possível marcar 'Não compareceu'.")).toBeTruthy();
    expect(await within(card('N.º 1:')).findByText('Cliente chegou')).toBeTruthy();
    expect(within(card('N.º 1:')).queryByText('Não compareceu')).toBeNull();
  });

  it("records the arrival before the start; 'Confirmar' stays until it starts", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1)]);
    renderAgenda('ATTENDANT');
    await options(user, 1);
    expect(menuItems()).toEqual(['Cancelar', 'Editar', 'Confirmar', 'Cliente chegou', 'Abrir comanda']);
    await user.click(screen.getByRole('menuitem', { name: 'Cliente chegou' }));
    expect(await screen.findByText('Chegada do cliente registrada no agendamento N.º 1.')).toBeTruthy();
    expect(within(card('N.º 1:')).getByText('Cliente chegou')).toBeTruthy();
    expect(agenda.calls.find((call) => call.path === 'scheduling/1/arrival')!.method).toBe('POST');
  });

  it("opens the appointment's comanda and goes to it; a second desk's try shows the 409", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(1), appointment(2, { StartTime: '11:00:00', EndTime: '11:30:00' })]);
    server.use(http.get(apiUrl('comanda/:id'), () => HttpResponse.json({ message: 'Comanda não encontrada.' }, { status: 404 })));
    const { router } = renderAgenda();
    await options(user, 1);
    await user.click(screen.getByRole('menuitem', { name: 'Abrir comanda' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/comanda/71'));
    expect(await screen.findByText('Comanda aberta.')).toBeTruthy();
    const opened = agenda.calls.find((call) => call.path === 'comanda')!;
    expect(opened.body).toEqual({ idCompany: 1, idScheduling: 1 });
    expect(opened.headers.get('Idempotency-Key')).toBeTruthy();

    // Back on the agenda: the card now leads to its comanda.
    await act(() => router.navigate('/dashboard/scheduling'));
    await options(user, 1);
    expect(screen.queryByRole('menuitem', { name: 'Abrir comanda' })).toBeNull();
    await user.click(screen.getByRole('menuitem', { name: 'Ver comanda' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/comanda/71'));

    // Another desk opened no. 2's comanda after this agenda was read.
    await act(() => router.navigate('/dashboard/scheduling'));
    agenda.items.get(2)!.IdComanda = 72;
    await options(user, 2);
    await user.click(screen.getByRole('menuitem', { name: 'Abrir comanda' }));
    expect(await screen.findByText('Este agendamento já tem a comanda N.º 72.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/scheduling');
  });

  it('offers none of it to the barbers', async () => {
    const user = userEvent.setup();
    agendaServer([appointment(1, { StartTime: '08:30:00', EndTime: '09:30:00', IdComanda: 31 })]);
    renderAgenda('BARBER1', { idProfessional: 4 });
    await options(user, 1);
    expect(menuItems()).toEqual(['Cancelar', 'Editar']);
  });
});

describe("the 'Online' mark", () => {
  const online = (scope: HTMLElement) => within(scope).queryByRole('img', { name: 'Agendado online' });

  it('marks a booking made on the public page on its card, its timeline block and its week block', async () => {
    const user = userEvent.setup();
    agendaServer([
      appointment(1, { Online: true, StartTime: '10:00:00', EndTime: '10:30:00' }),
      appointment(2, { StartTime: '11:00:00', EndTime: '11:30:00' }),
      // Shares lanes with no. 4: a narrow block gets the compact mark.
      appointment(3, { Online: true, StartTime: '13:00:00', EndTime: '14:00:00', IdProfessional: 5 }),
      appointment(4, { StartTime: '13:30:00', EndTime: '14:00:00', IdProfessional: 5 }),
    ]);
    renderAgenda();

    // The list: the card's badge, with its name and hint.
    const card = await screen.findByRole('article', { name: /N\.º 1:/ });
    const badge = online(card)!;
    expect(badge.textContent).toBe('Online');
    expect(badge.className).toBe('badge badge-online');
    expect(badge.getAttribute('title')).toBe('Agendado online');
    expect(badge.getAttribute('style')).toBeNull();
    expect(online(screen.getByRole('article', { name: /N\.º 2:/ }))).toBeNull();

    // The timeline: the whole mark on a block alone in its column, the globe where lanes share it.
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    const block = (id: number) => within(timeline).getByRole('listitem', { name: new RegExp(`N\\.º ${id}:`) });
    expect(online(block(1))!.textContent).toBe('Online');
    expect(online(block(1))!.className).not.toContain('badge-online-compact');
    expect(online(block(2))).toBeNull();
    expect(online(block(3))!.className).toContain('badge-online-compact');
    expect(online(block(3))!.textContent).toBe('');
    expect(online(block(4))).toBeNull();

    // The week of Diego: its narrow columns carry the compact mark.
    await user.click(screen.getByRole('combobox', { name: 'Profissional' }));
    await user.click(screen.getByRole('option', { name: 'Diego Barbeiro' }));
    await user.click(screen.getByRole('button', { name: 'Semana' }));
    const week = await screen.findByRole('region', { name: 'Semana de Diego Barbeiro' });
    const weekBlock = await within(week).findByRole('listitem', { name: /N\.º 1:/ });
    expect(online(weekBlock)!.className).toContain('badge-online-compact');
    expect(online(weekBlock)!.getAttribute('title')).toBe('Agendado online');
    expect(online(within(week).getByRole('listitem', { name: /N\.º 2:/ }))).toBeNull();
  });
});

describe("the appointment's WhatsApp reminder (issue 44)", () => {
  const line = (id: number) => card(`N.º ${id}:`).querySelector('.appointment-reminder');
  const failedMark = (scope: HTMLElement) => within(scope).queryByRole('img', { name: 'Lembrete não entregue' });

  it('says on the card how the reminder went, the failed one in red with what to do; on a block only the failed one', async () => {
    const user = userEvent.setup();
    agendaServer([
      appointment(1, { StartTime: '10:00:00', EndTime: '10:30:00', Reminder: 'SENDING' }),
      appointment(2, { StartTime: '10:30:00', EndTime: '11:00:00', Reminder: 'SENT' }),
      appointment(3, { StartTime: '11:00:00', EndTime: '11:30:00', Reminder: 'DELIVERED' }),
      appointment(4, { StartTime: '11:30:00', EndTime: '12:00:00', Reminder: 'READ' }),
      appointment(5, { StartTime: '12:00:00', EndTime: '12:30:00', Reminder: 'FAILED' }),
      appointment(6, { StartTime: '12:30:00', EndTime: '13:00:00', Reminder: 'SKIPPED' }),
      appointment(7, { StartTime: '13:00:00', EndTime: '13:30:00', Reminder: null }),
      // Cancelled: nobody needs to call.
      appointment(8, { StartTime: '13:30:00', EndTime: '14:00:00', Reminder: 'FAILED', Status: false }),
    ]);
    renderAgenda();
    await screen.findByRole('article', { name: /N\.º 1:/ });
    expect([1, 2, 3, 4, 5, 6].map((id) => line(id)?.textContent)).toEqual([
      'Enviando lembrete',
      'Lembrete enviado',
      'Lembrete entregue',
      'Lembrete lido',
      'Lembrete não entregue',
      'Lembrete não enviado',
    ]);
    expect(line(7)).toBeNull();
    expect(line(8)).toBeNull();
    expect(line(5)!.className).toBe('appointment-reminder appointment-reminder-failed');
    expect(line(5)!.getAttribute('title')).toBe('O WhatsApp não entregou o lembrete: ligue para o cliente.');
    expect(line(4)!.className).toBe('appointment-reminder');
    expect(line(4)!.getAttribute('title')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    const block = (id: number) => within(timeline).getByRole('listitem', { name: new RegExp(`N\\.º ${id}:`) });
    const mark = failedMark(block(5))!;
    expect(mark.getAttribute('title')).toBe('O WhatsApp não entregou o lembrete: ligue para o cliente.');
    for (const id of [1, 2, 3, 4, 6, 7, 8]) expect(failedMark(block(id))).toBeNull();
    expect(block(4).textContent).not.toContain('Lembrete');
  });
});

describe('appointment modal', () => {
  it('books in three steps, with every disabled state, and shows the booking at once', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    const { store } = renderAgenda();
    expect(await screen.findByText('Nenhum agendamento encontrado...')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    const next = () => within(modal).getByRole('button', { name: 'Próximo' });

    // CLIENT
    expect(next().hasAttribute('disabled')).toBe(true);
    expect(within(modal).getByRole('tooltip').textContent).toBe('Escolha o cliente');
    expect(await within(modal).findByText('Mostrando 1 à 5 de 12 resultados')).toBeTruthy();
    expect(within(modal).getAllByRole('columnheader').map((h) => h.textContent).slice(1)).toEqual([
      'Nome',
      'E-mail',
      'CPF',
      'Telefone',
    ]);
    await user.click(within(modal).getByRole('button', { name: 'Página 2' }));
    expect(await within(modal).findByText('Mostrando 6 à 10 de 12 resultados')).toBeTruthy();
    await user.type(within(modal).getByLabelText('Buscar cliente'), 'rafael');
    // A new search starts at page 1.
    expect(await within(modal).findByText('Mostrando 1 à 1 de 1 resultados')).toBeTruthy();
    expect(within(modal).getByText('529.982.247-25')).toBeTruthy();
    await user.click(within(modal).getByRole('row', { name: /Rafael Araújo/ }));
    expect(within(modal).queryByRole('tooltip')).toBeNull();
    await user.click(next());

    // SERVICE
    expect(within(modal).getByRole('tooltip').textContent).toBe('Escolha pelo menos um serviço');
    await user.click(within(modal).getByRole('checkbox', { name: /Corte de cabelo/ }));
    await user.click(within(modal).getByRole('checkbox', { name: /Sobrancelha/ }));
    expect(within(modal).getByText(/Total:/).textContent!.replace(/\u00a0/g, ' ')).toBe('Total: R$ 80,00 · 45 min');
    await user.type(within(modal).getByLabelText('Observações'), 'Primeira visita');
    await waitFor(() => expect(next().hasAttribute('disabled')).toBe(false));
    await user.click(next());

    // TIME
    const professional = within(modal).getByRole('combobox', { name: 'Profissional' }) as HTMLInputElement;
    expect(professional.value).toBe('Sem preferência');
    expect((within(modal).getByRole('radio', { name: 'Somente disponíveis' }) as HTMLInputElement).checked).toBe(true);
    // The first day with free times is chosen; other days are disabled.
    expect(within(modal).getByRole('button', { name: '24 de novembro de 2026' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(modal).getByRole('button', { name: '26 de novembro de 2026' }).hasAttribute('disabled')).toBe(true);
    for (const period of ['Manhã', 'Tarde', 'Noite']) expect(within(modal).getByRole('region', { name: period })).toBeTruthy();
    // 'Sem preferência': 11:00 once, though two professionals are free then.
    expect(within(modal).getAllByRole('button', { name: '11:00' })).toHaveLength(1);
    const confirm = within(modal).getByRole('button', { name: 'Confirmar' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    expect(within(modal).getByRole('tooltip').textContent).toBe(
      'Escolha corretamente os serviços, a data, o horário e o cliente.',
    );
    await user.click(within(modal).getByRole('button', { name: '14:15' }));
    await user.click(confirm);

    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const post = agenda.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      idCompanyProfessional: 7,
      date: DAY,
      startTime: '14:15',
      endTime: '14:45',
      idServices: [1, 4],
      idUser: 1,
      observation: 'Primeira visita',
      timesType: 'ONLY_AVAILABLES',
    });
    expect(post.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    const booked = await screen.findByRole('article', { name: /Rafael Araújo, 14:15/ });
    expect(within(booked).getByText('Primeira visita')).toBeTruthy();
    expect(agenda.dayReads().at(-1)!.headers.get('X-Navalha-Position')).toBe(agenda.lastPosition());
    expect(store.getState().agenda.date).toBe(DAY);
  });

  it('tells when the chosen professional has no time that day, and takes ALL_TIMES', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    await user.click(await within(modal).findByRole('row', { name: /Rafael Araújo/ }));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await user.click(within(modal).getByRole('checkbox', { name: /Barba/ }));
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await within(modal).findByRole('button', { name: '11:00' });

    // Diego has no time on the 25th.
    await user.click(within(modal).getByRole('button', { name: '25 de novembro de 2026' }));
    await user.click(within(modal).getByRole('combobox', { name: 'Profissional' }));
    await user.click(screen.getByRole('option', { name: 'Diego Barbeiro' }));
    expect(
      within(modal).getByText('Nenhum horário disponível para a data selecionada (25/11/2026). Selecione uma data válida.'),
    ).toBeTruthy();

    await user.click(within(modal).getByRole('radio', { name: 'Todos os horários' }));
    await waitFor(() =>
      expect(agenda.calls.at(-1)!.search.get('timesType')).toBe('ALL_TIMES'),
    );
    expect(agenda.calls.at(-1)!.search.get('idServices')).toBe('[2]');
  });

  it('edits from the services step, prefilled in steps, and saves with PUT', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Date: DAY, StartTime: '11:00:00', EndTime: '11:30:00', Observation: 'Máquina 2' })]);
    renderAgenda();
    await options(user, 9);
    await user.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const modal = screen.getByRole('dialog', { name: 'Editar agendamento' });
    expect(await within(modal).findByRole('checkbox', { name: /Corte de cabelo/, checked: true })).toBeTruthy();
    expect((within(modal).getByLabelText('Observações') as HTMLTextAreaElement).value).toBe('Máquina 2');
    expect(within(modal).getByRole('region', { name: 'Serviços' })).toBeTruthy();

    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    // Professional, then time, arrive after the stagger.
    await waitFor(
      () => expect((within(modal).getByRole('combobox', { name: 'Profissional' }) as HTMLInputElement).value).toBe('Diego Barbeiro'),
      { timeout: 3000 },
    );
    await waitFor(() => expect(within(modal).getByRole('button', { name: '11:00' }).getAttribute('aria-pressed')).toBe('true'), {
      timeout: 3000,
    });
    expect(agenda.calls.find((c) => c.path === 'no-auth/scheduling/available-times')!.search.get('idSchedulingEdit')).toBe('9');

    await user.click(within(modal).getByRole('button', { name: '14:15' }));
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    const put = agenda.calls.find((c) => c.method === 'PUT')!;
    expect(put.path).toBe('scheduling/professional/9');
    expect(put.body).toMatchObject({ idCompanyProfessional: 7, date: DAY, startTime: '14:15', idServices: [1], idUser: 9 });
    expect(await screen.findByRole('article', { name: /N\.º 9: .*, 14:15/ })).toBeTruthy();
  });
});

describe('moves and bookings keep their promises (issue 45)', () => {
  const OVERLAP = 'Este cliente já tem outro agendamento neste horário.';
  const overlapAnswer = () =>
    HttpResponse.json({ message: OVERLAP, errors: { allowClientOverlap: OVERLAP } }, { status: 409 });

  /** Opens 'Novo agendamento' and goes to the time step with Rafael and 'Corte de cabelo'. */
  async function toTimeStep(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Novo agendamento' }));
    const modal = screen.getByRole('dialog', { name: 'Novo agendamento' });
    await user.click(await within(modal).findByRole('row', { name: /Rafael Araújo/ }));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    await user.click(within(modal).getByRole('checkbox', { name: /Corte de cabelo/ }));
    await waitFor(() => expect(within(modal).getByRole('button', { name: 'Próximo' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(modal).getByRole('button', { name: 'Próximo' }));
    return modal;
  }

  /** Rafael's POSTs, in order. */
  const posts = (agenda: ReturnType<typeof agendaServer>) => agenda.calls.filter((c) => c.method === 'POST' && c.path === 'scheduling/professional');

  it("asks ADMIN about the client's other appointment, once, and books anyway with allowClientOverlap", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    let refused = false;
    server.use(
      http.post(apiUrl('scheduling/professional'), async ({ request }) => {
        const body = (await request.clone().json()) as { allowClientOverlap?: boolean };
        if (body.allowClientOverlap || refused) return undefined;
        refused = true;
        agenda.calls.push({ method: 'POST', path: 'scheduling/professional', search: new URLSearchParams(), body, headers: request.headers });
        return overlapAnswer();
      }),
    );
    renderAgenda('ADMIN');
    const modal = await toTimeStep(user);
    await user.click(await within(modal).findByRole('button', { name: '14:15' }));
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));

    const question = await screen.findByRole('dialog', { name: 'Cliente já agendado' });
    // The message once, in the question: no toast of it.
    expect(screen.getAllByText(OVERLAP)).toHaveLength(1);
    expect(within(question).getByText(OVERLAP)).toBeTruthy();
    await user.click(within(question).getByRole('button', { name: 'Agendar mesmo assim' }));

    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    const [first, second] = posts(agenda);
    expect(first.body).not.toHaveProperty('allowClientOverlap');
    expect(second.body).toMatchObject({ startTime: '14:15', idUser: 1, allowClientOverlap: true });
    // Another request: another key (the first one was answered).
    expect(second.headers.get('Idempotency-Key')).not.toBe(first.headers.get('Idempotency-Key'));
    expect(screen.queryByText(OVERLAP)).toBeNull();
  });

  it("'Cancelar' keeps the form open and books nothing", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    server.use(http.post(apiUrl('scheduling/professional'), () => overlapAnswer()));
    renderAgenda('ATTENDANT');
    const modal = await toTimeStep(user);
    await user.click(await within(modal).findByRole('button', { name: '14:15' }));
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    const question = await screen.findByRole('dialog', { name: 'Cliente já agendado' });
    await user.click(within(question).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog', { name: 'Cliente já agendado' })).toBeNull();
    expect(within(modal).getByRole('button', { name: '14:15' }).getAttribute('aria-pressed')).toBe('true');
    expect(posts(agenda)).toHaveLength(0);
  });

  it('shows other roles the message once, as before, with nothing to confirm', async () => {
    const user = userEvent.setup();
    agendaServer([]);
    server.use(http.post(apiUrl('scheduling/professional'), () => overlapAnswer()));
    renderAgenda('BARBER_LEADE');
    const modal = await toTimeStep(user);
    await user.click(await within(modal).findByRole('button', { name: '14:15' }));
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(OVERLAP)).toBeTruthy();
    expect(screen.getAllByText(OVERLAP)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Agendar mesmo assim' })).toBeNull();
  });

  it("clears a chosen time another desk just took, and says so", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    renderAgenda('ATTENDANT');
    await waitFor(() => expect(agenda.openStreams()).toBe(1));
    const modal = await toTimeStep(user);
    await user.click(await within(modal).findByRole('button', { name: '14:15' }));
    expect(within(modal).getByRole('button', { name: 'Confirmar' }).hasAttribute('disabled')).toBe(false);

    // Another desk books Diego at 14:15: the free times no longer have it.
    const left = freeTimes();
    left.times[0].freeHours = left.times[0].freeHours.filter((hour) => hour.start !== '14:15');
    server.use(http.get(apiUrl('no-auth/scheduling/available-times'), () => HttpResponse.json(left)));
    agenda.pushChange('agenda');

    expect((await within(modal).findByRole('alert')).textContent).toBe('Este horário acabou de ser reservado. Escolha outro.');
    expect(within(modal).queryByRole('button', { name: '14:15' })).toBeNull();
    expect(within(modal).getByRole('button', { name: 'Confirmar' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(modal).getByRole('button', { name: '11:00' }));
    expect(within(modal).queryByRole('alert')).toBeNull();
  });

  it("asks which price an edit to another professional charges, and sends reprice when the new one is chosen", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Date: DAY, StartTime: '11:00:00', EndTime: '11:30:00' })]);
    // Caio charges R$ 65,00 for 'Corte de cabelo'; it was booked at R$ 55,00.
    server.use(
      http.get(apiUrl('professional-service/professional/3'), () =>
        HttpResponse.json([
          { IdCompanyProfessionalService: 31, IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 65, Combo: false, Status: true },
        ]),
      ),
    );
    renderAgenda('ADMIN');
    const modal = await editToTimeStep(user, 9);
    await moveAndConfirm(user, modal, '11:00', '11:00', 'Caio Líder');

    const question = await screen.findByRole('dialog', { name: 'Valor do agendamento' });
    expect(question.textContent!.replace(/\u00a0/g, ' ')).toContain('O valor muda de R$ 55,00 para R$ 65,00.');
    // Cancelled: nothing sent, the form stays.
    await user.click(within(question).getByRole('button', { name: 'Cancelar' }));
    expect(agenda.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
    await user.click(within(modal).getByRole('button', { name: 'Confirmar' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Valor do agendamento' })).getByRole('button', { name: /^Usar R\$\s65,00$/ }));

    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    const put = agenda.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ idCompanyProfessional: 6, startTime: '11:00', reprice: true });
  });

  /**
   * The timeline, and a drag of appointment 9 (from Diego's column to Eduardo's) to 14:00. jsdom has
   * no DragEvent nor PointerEvent: ones with the pointer's position stand in.
   */
  async function onTimeline(user: ReturnType<typeof userEvent.setup>) {
    vi.stubGlobal('DragEvent', class extends MouseEvent {});
    vi.stubGlobal('PointerEvent', class extends MouseEvent {});
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    await screen.findByRole('article', { name: /N\.º 9:/ });
    await user.click(screen.getByRole('button', { name: 'Linha do tempo' }));
    const timeline = screen.getByRole('region', { name: 'Linha do tempo' });
    const column = (name: string) => within(timeline).getByRole('list', { name: `Agenda de ${name}` });
    const drag = (from = 'Diego Barbeiro', to = 'Eduardo Barbeiro') => {
      const card = within(column(from)).getByRole('listitem', { name: /N\.º 9:/ });
      // Held by its top, dropped five hour rows below 9:00.
      fireEvent.pointerDown(card, { clientY: 0 });
      fireEvent.dragStart(card, { dataTransfer: { setData: () => undefined, effectAllowed: 'move' } });
      fireEvent.drop(column(to), { clientY: 5 * 122 });
    };
    return { column, drag };
  }

  it('asks before a drag to another professional changes the price: cancel puts the card back, a choice moves it', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Date: DAY, StartTime: '10:00:00', EndTime: '10:30:00' })]);
    // Eduardo charges R$ 45,00 for 'Corte de cabelo'; it was booked at R$ 55,00.
    server.use(
      http.get(apiUrl('professional-service/professional/5'), () =>
        HttpResponse.json([
          { IdCompanyProfessionalService: 51, IdService: 1, Description: 'Corte de cabelo', Time: 30, Value: 45, Combo: false, Status: true },
        ]),
      ),
    );
    renderAgenda('ADMIN');
    const { column, drag } = await onTimeline(user);

    drag();
    const question = await screen.findByRole('dialog', { name: 'Valor do agendamento' });
    expect(question.textContent!.replace(/\u00a0/g, ' ')).toContain('O valor muda de R$ 55,00 para R$ 45,00.');
    // Shown at its new place while asked.
    expect(within(column('Eduardo Barbeiro')).getByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
    await user.click(within(question).getByRole('button', { name: 'Cancelar' }));
    expect(await within(column('Diego Barbeiro')).findByRole('listitem', { name: /N\.º 9: .*, 10:00 - 10:30/ })).toBeTruthy();
    expect(agenda.calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    drag();
    await user.click(within(await screen.findByRole('dialog', { name: 'Valor do agendamento' })).getByRole('button', { name: /^Manter R\$\s55,00$/ }));
    expect(await screen.findByText(`Agendamento N.º 9 movido para 24/11/2026 às 14:00.`)).toBeTruthy();
    const put = agenda.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ idCompanyProfessional: 8, date: DAY, startTime: '14:00', idServices: [1] });
    expect(put.body).not.toHaveProperty('reprice');
    expect(await within(column('Eduardo Barbeiro')).findByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
  });

  it("a drag of a client into another of their appointments' time asks ATTENDANT, and moves anyway", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Date: DAY, StartTime: '10:00:00', EndTime: '10:30:00' })]);
    server.use(
      http.put(apiUrl('scheduling/professional/9'), async ({ request }) => {
        const body = (await request.clone().json()) as { allowClientOverlap?: boolean };
        return body.allowClientOverlap ? undefined : overlapAnswer();
      }),
    );
    renderAgenda('ATTENDANT');
    const { column, drag } = await onTimeline(user);
    drag();
    const question = await screen.findByRole('dialog', { name: 'Cliente já agendado' });
    expect(screen.getAllByText(OVERLAP)).toHaveLength(1);
    // ATTENDANT reads no professional's prices: no price question came first.
    expect(agenda.calls.some((c) => c.path.startsWith('professional-service/'))).toBe(false);
    // The card waits at its new place for the answer.
    expect(within(column('Eduardo Barbeiro')).getByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
    await user.click(within(question).getByRole('button', { name: 'Agendar mesmo assim' }));
    expect(await screen.findByText('Agendamento N.º 9 movido para 24/11/2026 às 14:00.')).toBeTruthy();
    expect(agenda.calls.find((c) => c.method === 'PUT')!.body).toMatchObject({ startTime: '14:00', allowClientOverlap: true });

    // Back to Diego, refused again and not confirmed: the card goes back to Eduardo.
    await within(column('Eduardo Barbeiro')).findByRole('listitem', { name: /N\.º 9:/ });
    drag('Eduardo Barbeiro', 'Diego Barbeiro');
    const again = await screen.findByRole('dialog', { name: 'Cliente já agendado' });
    expect(within(column('Diego Barbeiro')).getByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
    await user.click(within(again).getByRole('button', { name: 'Cancelar' }));
    expect(await within(column('Eduardo Barbeiro')).findByRole('listitem', { name: /N\.º 9: .*, 14:00 - 14:30/ })).toBeTruthy();
    expect(within(column('Diego Barbeiro')).queryByRole('listitem', { name: /N\.º 9:/ })).toBeNull();
  });

  it("keeps the booked prices unasked when the professional stays, or for a role that cannot read the prices", async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([appointment(9, { Date: DAY, StartTime: '11:00:00', EndTime: '11:30:00' })]);
    renderAgenda('ATTENDANT');
    const modal = await editToTimeStep(user, 9);
    await moveAndConfirm(user, modal, '11:00', '11:00', 'Caio Líder');
    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Valor do agendamento' })).toBeNull();
    const put = agenda.calls.find((c) => c.method === 'PUT')!;
    expect(put.body).not.toHaveProperty('reprice');
    expect(agenda.calls.some((c) => c.path.startsWith('professional-service/'))).toBe(false);
  });
});

describe('mobile scheduling screen', () => {
  beforeEach(() => {
    window.innerWidth = 390;
  });

  it('lists confirmed or cancelled appointments with a search box', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([
      appointment(1),
      appointment(2, { StartTime: '11:00:00' }),
      appointment(3, { StartTime: '12:00:00', Status: false }),
    ]);
    renderAgenda();
    expect(await screen.findByRole('heading', { name: 'Agendamentos' })).toBeTruthy();
    await screen.findByRole('article', { name: /N\.º 2:/ });
    expect(agenda.dayReads()[0].search.get('status')).toBe('1');
    expect(screen.queryByRole('article', { name: /N\.º 3:/ })).toBeNull();

    await user.type(screen.getByLabelText('Buscar'), 'thiago');
    expect(screen.getAllByRole('article')).toHaveLength(1);
    await user.clear(screen.getByLabelText('Buscar'));
    await user.type(screen.getByLabelText('Buscar'), '(11) 98765-0100');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/N\.º 1:/),
    ]);
    await user.clear(screen.getByLabelText('Buscar'));

    await user.click(screen.getByRole('button', { name: 'Visualizar cancelados' }));
    expect(await screen.findByRole('article', { name: /N\.º 3:/ })).toBeTruthy();
    expect(agenda.dayReads().at(-1)!.search.get('status')).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Visualizar confirmados' }));
    expect(await screen.findByRole('article', { name: /N\.º 1:/ })).toBeTruthy();
  });

  it('searches branches and signs out after confirming', async () => {
    const user = userEvent.setup();
    agendaServer([appointment(1)]);
    const { router, store } = renderAgenda('ADMIN', {
      companies: [
        { IdCompany: 1, Name: 'Navalha Centro', City: 'São Paulo', State: 'SP', Status: true },
        { IdCompany: 2, Name: 'Navalha Savassi', City: 'Belo Horizonte', State: 'MG', Status: true },
      ],
    });
    const branch = (await screen.findByRole('combobox', { name: 'Filial' })) as HTMLInputElement;
    await user.click(branch);
    await user.type(branch, 'BELO');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Navalha Savassi Belo Horizonte - MG']);
    await user.click(screen.getByRole('option', { name: /Savassi/ }));
    expect(branch.value).toBe('Navalha Savassi');
    // The agenda opens on it next time (issue 45), after signing out too.
    expect(store.getState().ui.agendaUnits).toEqual({ 7: '2' });

    // The mobile top bar's, not the side menu's.
    await user.click(screen.getAllByRole('button', { name: 'Sair' }).find((button) => !button.closest('nav'))!);
    const dialog = screen.getAllByRole('dialog').find((d) => within(d).queryByText('Deseja realmente sair ?'))!;
    await user.click(within(dialog).getByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().ui.agendaUnits).toEqual({ 7: '2' });
  });

  it('books through the mobile flow, without timesType', async () => {
    const user = userEvent.setup();
    const agenda = agendaServer([]);
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));

    expect(screen.getByRole('heading', { name: 'Novo agendamento' })).toBeTruthy();
    expect(screen.getByText('Para exibir os horários disponíveis, selecione ao menos um serviço.')).toBeTruthy();
    const confirm = screen.getByRole('button', { name: 'Confirmar' });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('tooltip').textContent).toBe('Escolha corretamente os serviços, a data, o horário e o cliente.');

    await user.click(await screen.findByRole('checkbox', { name: /Barba/ }));
    await user.click(await screen.findByRole('button', { name: '18:30' }));
    expect(confirm.hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Selecionar cliente' }));
    const search = screen.getByRole('dialog', { name: 'Buscar cliente' });
    await user.type(within(search).getByLabelText('Buscar cliente'), 'nada disso');
    expect(await within(search).findByText('Nenhum usuário encontrado')).toBeTruthy();
    await user.clear(within(search).getByLabelText('Buscar cliente'));
    await user.click(await within(search).findByRole('row', { name: /Gustavo Ribeiro/ }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Cliente' })).getByText('Gustavo Ribeiro')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(/^Agendamento realizado com sucesso!/)).toBeTruthy();
    const post = agenda.calls.find((c) => c.method === 'POST')!;
    expect(post.body).toEqual({
      idCompanyProfessional: 6,
      date: DAY,
      startTime: '18:30',
      endTime: '19:00',
      idServices: [2],
      idUser: 3,
      observation: '',
    });
    expect(agenda.calls.find((c) => c.path === 'no-auth/scheduling/available-times')!.search.has('timesType')).toBe(false);
    expect(await screen.findByRole('article', { name: /Gustavo Ribeiro, 18:30/ })).toBeTruthy();
  });

  it("'Voltar' leaves the flow and clears the services", async () => {
    const user = userEvent.setup();
    agendaServer([]);
    renderAgenda();
    await screen.findByText('Nenhum agendamento encontrado...');
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    await user.click(await screen.findByRole('checkbox', { name: /Barba/ }));
    await user.click(screen.getByRole('button', { name: 'Voltar' }));
    expect(screen.getByRole('heading', { name: 'Agendamentos' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    expect(((await screen.findByRole('checkbox', { name: /Barba/ })) as HTMLInputElement).checked).toBe(false);
  });
});

describe('live clock', () => {
  it('ticks every second', async () => {
    agendaServer([]);
    renderAgenda();
    const clock = await screen.findByLabelText('Hora atual');
    const before = clock.textContent;
    act(() => {
      vi.setSystemTime(new Date(NOW.getTime() + 61_000));
    });
    await waitFor(() => expect(clock.textContent).not.toBe(before), { timeout: 2500 });
    expect(clock.textContent).toMatch(/^09:01:0\d$/);
  });
});
