import { describe, expect, it } from 'vitest';
import { describeHistory, EMPTY, eventTitle, fieldLabel, formatValue, humanize, roleLabel } from './format';
import type { HistoryEntry } from './types';

const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');

const entry = (overrides: Partial<HistoryEntry>): HistoryEntry => ({
  Sequence: 1,
  At: '2026-11-24T17:05:09.496628Z',
  UserId: 1,
  UserName: 'Ana Administradora',
  Role: 'ADMIN',
  Event: 'AppointmentBooked',
  Changes: [],
  ...overrides,
});

/** The audit of the Rust test `the_audit_tells_an_admin_who_moved_the_appointment_and_from_where`. */
const appointment: HistoryEntry[] = [
  entry({
    Sequence: 1,
    At: '2026-11-24T13:00:00Z',
    UserName: 'Beatriz Atendente',
    Role: 'ATTENDANT',
    Event: 'AppointmentBooked',
    Changes: [
      { Field: 'client_id', From: null, To: 5 },
      { Field: 'company_id', From: null, To: 1 },
      { Field: 'date', From: null, To: '2026-11-24' },
      { Field: 'end', From: null, To: '15:30' },
      { Field: 'membership_id', From: null, To: 6 },
      { Field: 'observation', From: null, To: '' },
      { Field: 'professional_id', From: null, To: 3 },
      { Field: 'services', From: null, To: [{ cents: 5500, description: 'Corte de cabelo', minutes: 30, service_id: 1 }] },
      { Field: 'start', From: null, To: '15:00' },
      { Field: 'times_type', From: null, To: 'ONLY_AVAILABLES' },
    ],
  }),
  entry({
    Sequence: 2,
    At: '2026-11-24T14:10:00Z',
    UserName: 'Caio Líder',
    Role: 'BARBER_LEADE',
    Event: 'AppointmentChanged',
    Changes: [
      { Field: 'end', From: '15:30', To: '12:30' },
      { Field: 'start', From: '15:00', To: '12:00' },
      { Field: 'times_type', From: 'ONLY_AVAILABLES', To: 'ALL_TIMES' },
    ],
  }),
  entry({ Sequence: 3, At: '2026-11-24T14:20:00Z', UserName: 'Beatriz Atendente', Role: 'ATTENDANT', Event: 'AppointmentConfirmed' }),
  entry({ Sequence: 4, At: '2026-11-24T14:30:00Z', Event: 'AppointmentCancelled' }),
];

describe('describeHistory', () => {
  it('lists an appointment newest first: who, in which role, when on the units clock, and what', () => {
    const described = describeHistory(appointment, 'appointment', {
      professionals: { 3: 'Diego Barbeiro' },
      clients: { 5: 'João Conceição' },
      companies: { 1: 'Navalha Centro' },
    });
    expect(described.map((e) => e.title)).toEqual(['Cancelado', 'Confirmado', 'Horário alterado', 'Agendamento criado']);
    expect(described.map((e) => `${e.who} (${e.role})`)).toEqual([
      'Ana Administradora (Administrador)',
      'Beatriz Atendente (Atendente)',
      'Caio Líder (Barbeiro líder)',
      'Beatriz Atendente (Atendente)',
    ]);
    // 14:10 UTC is 11:10 at the units (UTC-3).
    expect(described[2].when).toBe('24/11/2026 11:10');
    expect(described[2].created).toBe(false);
    expect(described[2].changes).toEqual([
      { field: 'start', label: 'Início', from: '15:00', to: '12:00' },
      { field: 'end', label: 'Término', from: '15:30', to: '12:30' },
      { field: 'times_type', label: 'Horários', from: 'Somente disponíveis', to: 'Todos os horários' },
    ]);
    expect(described[0].changes).toEqual([]);
  });

  it('shows a booking as its values, named, without internal ids or empty fields', () => {
    const [booked] = describeHistory(appointment.slice(0, 1), 'appointment', {
      professionals: { 3: 'Diego Barbeiro' },
      clients: { 5: 'João Conceição' },
      companies: { 1: 'Navalha Centro' },
    });
    expect(booked.created).toBe(true);
    const lines = Object.fromEntries(booked.changes.map((c) => [c.label, nbsp(c.to)]));
    expect(lines).toEqual({
      Cliente: 'João Conceição',
      Empresa: 'Navalha Centro',
      Data: '24/11/2026',
      Término: '15:30',
      Profissional: 'Diego Barbeiro',
      Serviços: 'Corte de cabelo (30 min, R$ 55,00)',
      Início: '15:00',
      Horários: 'Somente disponíveis',
    });
    expect(booked.changes.every((c) => c.from === null)).toBe(true);
  });

  it('names unknown ids by number and the system by what it was doing', () => {
    const [booked] = describeHistory(
      [entry({ UserId: null, UserName: 'Carga de demonstração', Role: null, Changes: [{ Field: 'client_id', From: null, To: 9 }] })],
      'appointment',
    );
    expect(booked.who).toBe('Carga de demonstração');
    expect(booked.role).toBe('Sistema');
    expect(booked.changes[0].to).toBe('N.º 9');
    expect(describeHistory([entry({ UserName: '  ', Role: null })], 'appointment')[0].who).toBe('Sistema');
  });

  it('titles a move by what moved, and a move of several things as a change of the appointment', () => {
    const fields = (...names: string[]) => eventTitle('AppointmentChanged', names);
    expect(fields('date', 'start', 'end')).toBe('Horário alterado');
    expect(fields('professional_id', 'membership_id')).toBe('Profissional alterado');
    expect(fields('client_id')).toBe('Cliente alterado');
    expect(fields('services', 'end')).toBe('Serviços alterados');
    expect(fields('observation')).toBe('Observações alteradas');
    expect(fields('start', 'end', 'professional_id', 'membership_id')).toBe('Agendamento alterado');
    expect(fields('times_type')).toBe('Agendamento alterado');
  });

  it('shows which series a booking belongs to and how it repeats', () => {
    const [booked] = describeHistory(
      [
        entry({
          Event: 'AppointmentBooked',
          Changes: [
            { Field: 'series.id', From: null, To: 120 },
            { Field: 'series.index', From: null, To: 2 },
            { Field: 'series.count', From: null, To: 4 },
            { Field: 'series.every_weeks', From: null, To: 2 },
          ],
        }),
      ],
      'appointment',
    );
    expect(booked.changes.map((c) => [c.label, c.to])).toEqual([
      ['Série', 'N.º 120'],
      ['Ocorrência na série', '2'],
      ['Ocorrências da série', '4'],
      ['Repetição', 'A cada 2 semanas'],
    ]);
  });

  it('shows the CPF given to a client added at the desk without one, masked', () => {
    const [added] = describeHistory(
      [entry({ Event: 'CpfAdded', Changes: [{ Field: 'cpf', From: '', To: '52998224725' }] })],
      'client',
    );
    expect(added.title).toBe('CPF informado');
    expect(added.changes.map((c) => [c.label, c.to])).toEqual([['CPF', '529.982.247-25']]);
  });

  it('shows a client edit field by field: text, dates, phone and WhatsApp in pt-BR', () => {
    const [updated] = describeHistory(
      [
        entry({
          Event: 'ClientUpdated',
          Changes: [
            { Field: 'birth_date', From: '1970-01-05', To: null },
            { Field: 'name', From: 'João Conceição', To: 'João C. Silva' },
            { Field: 'phone', From: '11987650100', To: '1133334444' },
            { Field: 'status', From: true, To: false },
            { Field: 'whatsapp', From: false, To: true },
          ],
        }),
      ],
      'client',
    );
    expect(updated.title).toBe('Dados do cliente alterados');
    // In the form's order, not the server's alphabetical one.
    expect(updated.changes.map((c) => [c.label, c.from, c.to])).toEqual([
      ['Nome', 'João Conceição', 'João C. Silva'],
      ['Celular', '(11) 98765-0100', '(11) 3333-4444'],
      ['WhatsApp', 'Não', 'Sim'],
      ['Data de nascimento', '05/01/1970', EMPTY],
      ['Status', 'Ativo', 'Inativo'],
    ]);
  });

  it('names a professional service by the catalogue service it was added with', () => {
    const described = describeHistory(
      [
        entry({
          Sequence: 1,
          Event: 'ServiceAdded',
          Changes: [
            { Field: 'item 7.active', From: null, To: true },
            { Field: 'item 7.cents', From: null, To: 4500 },
            { Field: 'item 7.combo', From: null, To: false },
            { Field: 'item 7.id', From: null, To: 7 },
            { Field: 'item 7.minutes', From: null, To: 30 },
            { Field: 'item 7.service_id', From: null, To: 3 },
          ],
        }),
        entry({ Sequence: 2, Event: 'ServiceChanged', Changes: [{ Field: 'item 7.minutes', From: 30, To: 45 }] }),
        entry({ Sequence: 3, Event: 'ServiceChanged', Changes: [{ Field: 'item 8.cents', From: 1000, To: 1250 }] }),
      ],
      'professional',
      { services: { 3: 'Barba' } },
    );
    expect(described.map((e) => e.title)).toEqual(['Serviço alterado: N.º 8', 'Serviço alterado: Barba', 'Serviço adicionado: Barba']);
    expect(described[1].changes).toEqual([{ field: 'item 7.minutes', label: 'Tempo', from: '30 min', to: '45 min' }]);
    expect(nbsp(described[0].changes[0].to)).toBe('R$ 12,50');
    expect(described[2].changes.map((c) => [c.label, nbsp(c.to)])).toEqual([
      ['Tempo', '30 min'],
      ['Valor', 'R$ 45,00'],
      ['Combo', 'Não'],
      ['Status', 'Ativo'],
    ]);
  });

  it('shows a professional employment change: role, colour, status and units', () => {
    const [changed] = describeHistory(
      [
        entry({
          Event: 'EmploymentChanged',
          Changes: [
            { Field: 'memberships', From: [{ company_id: 1, id: 1 }], To: [{ company_id: 1, id: 1 }, { company_id: 4, id: 12 }] },
          ],
        }),
      ],
      'professional',
      { companies: { 1: 'Navalha Centro', 4: 'Navalha Batel' } },
    );
    expect(changed.title).toBe('Empresas alteradas');
    expect(changed.changes[0]).toEqual({
      field: 'memberships',
      label: 'Empresas',
      from: 'Navalha Centro',
      to: 'Navalha Centro, Navalha Batel',
    });
    expect(eventTitle('EmploymentChanged', ['role'])).toBe('Perfil alterado');
    expect(eventTitle('EmploymentChanged', ['role', 'color'])).toBe('Dados profissionais alterados');
    expect(formatValue('role', 'BARBER1')).toBe('Barbeiro 1');
    expect(formatValue('color', '#9e9e9e')).toBe('Cinza (#9E9E9E)');
    expect(formatValue('status', 0)).toBe('Pendente');
    expect(formatValue('status', 2)).toBe('Inativo');
  });

  it('labels working hours by weekday, and an empty day as a day off', () => {
    expect(fieldLabel('weekDay 2.periods', 'professional')).toBe('Terça-feira');
    expect(fieldLabel('weekDay 6.period.start', 'company')).toBe('Sábado, abertura');
    expect(fieldLabel('weekDay 0.period.end', 'company')).toBe('Domingo, fechamento');
    expect(
      formatValue('weekDay 2.periods', [
        { start: '09:00', end: '12:00' },
        { start: '13:00', end: '18:00' },
      ]),
    ).toBe('09:00 às 12:00, 13:00 às 18:00');
    expect(formatValue('weekDay 2.periods', [])).toBe('Folga');
  });

  it('uses the unit form words and masks for a unit', () => {
    expect(fieldLabel('phone', 'company')).toBe('Telefone');
    expect(fieldLabel('phone', 'client')).toBe('Celular');
    expect(fieldLabel('address.zip_code', 'company')).toBe('CEP');
    expect(formatValue('address.zip_code', '01042001')).toBe('01.042-001');
    expect(formatValue('cnpj', '40123456000163')).toBe('40.123.456/0001-63');
    expect(formatValue('cpf', '52998224725')).toBe('529.982.247-25');
    expect(formatValue('images', [{ id: 1, file: 'a.png' }])).toBe('1 foto');
    expect(formatValue('images', [])).toBe('0 fotos');
  });
});

/** A comanda's stream as the server diffs it (query-api/src/history.rs): each event lists only what changed. */
const comanda: HistoryEntry[] = [
  entry({
    Sequence: 1,
    UserName: 'Beatriz Atendente',
    Role: 'ATTENDANT',
    Event: 'ComandaOpened',
    Changes: [
      { Field: 'appointment_id', From: null, To: 12 },
      { Field: 'client_id', From: null, To: 5 },
      { Field: 'company_id', From: null, To: 1 },
      {
        Field: 'items',
        From: null,
        To: [{ item_id: 1, kind: 'service', ref_id: 1, description: 'Corte de cabelo', professional_id: 3, quantity: 1, unit_cents: 5500 }],
      },
    ],
  }),
  entry({
    Sequence: 2,
    Event: 'ItemAdded',
    Changes: [
      { Field: 'description', From: null, To: 'Pomada' },
      { Field: 'discount.BasisPoints', From: null, To: 1250 },
      { Field: 'item_id', From: null, To: 2 },
      { Field: 'kind', From: null, To: 'product' },
      { Field: 'quantity', From: null, To: 2 },
      { Field: 'ref_id', From: null, To: 7 },
      { Field: 'unit_cents', From: null, To: 3990 },
    ],
  }),
  // The line just added: its id has not changed, so the event lists nothing.
  entry({ Sequence: 3, Event: 'ItemRemoved', Changes: [] }),
  entry({
    Sequence: 4,
    Event: 'DiscountSet',
    Changes: [{ Field: 'discount.Cents', From: null, To: 500 }],
  }),
  entry({
    Sequence: 5,
    Event: 'TipAdded',
    Changes: [
      { Field: 'cents', From: null, To: 1000 },
      { Field: 'professional_id', From: null, To: 3 },
      { Field: 'tip_id', From: null, To: 1 },
    ],
  }),
  entry({
    Sequence: 6,
    Event: 'PaymentTaken',
    Changes: [
      { Field: 'caixa_id', From: null, To: 4 },
      { Field: 'cash_received_cents', From: null, To: 10000 },
      { Field: 'cents', From: 1000, To: 6000 },
      { Field: 'method', From: null, To: 'cash' },
      { Field: 'payment_id', From: null, To: 1 },
    ],
  }),
  entry({
    Sequence: 7,
    Event: 'PaymentRefunded',
    // The payment's id and value are unchanged since it was taken: only the reason is new.
    Changes: [{ Field: 'reason', From: null, To: 'Cobrado a mais' }],
  }),
  entry({
    Sequence: 8,
    Event: 'ComandaClosed',
    Changes: [
      { Field: 'at', From: null, To: '2026-11-24T10:40:00' },
      { Field: 'lines', From: null, To: [{ item_id: 1, net_cents: 5000 }] },
      { Field: 'subtotal_cents', From: null, To: 5500 },
      { Field: 'total_cents', From: null, To: 5000 },
    ],
  }),
  entry({ Sequence: 9, Event: 'ComandaReopened', Changes: [{ Field: 'reason', From: 'Cobrado a mais', To: 'Faltou a gorjeta' }] }),
];

describe('a comanda', () => {
  const described = describeHistory(comanda, 'comanda', { professionals: { 3: 'Caio Líder' }, clients: { 5: 'João Conceição' } });
  const bySequence = (sequence: number) => described.find((e) => e.key === sequence)!;
  const lines = (sequence: number) => bySequence(sequence).changes.map((c) => [c.label, c.from, nbsp(c.to)]);

  it('names each line, tip and payment in its title, also when it is removed or refunded', () => {
    expect(described.map((e) => nbsp(e.title))).toEqual([
      'Comanda reaberta',
      'Comanda fechada',
      'Estorno: Dinheiro R$ 60,00',
      'Pagamento recebido: Dinheiro R$ 60,00',
      'Gorjeta adicionada: Caio Líder R$ 10,00',
      'Desconto alterado',
      'Item removido: Pomada',
      'Item adicionado: Pomada',
      'Comanda aberta',
    ]);
  });

  it('shows what was opened, added and paid as values in reais, without internal ids', () => {
    expect(lines(1)).toEqual([
      ['Cliente', null, 'João Conceição'],
      ['Unidade', null, 'N.º 1'],
      ['Agendamento', null, 'N.º 12'],
      ['Itens', null, 'Corte de cabelo (1 × R$ 55,00)'],
    ]);
    expect(lines(2)).toEqual([
      ['Tipo', null, 'Produto'],
      ['Descrição', null, 'Pomada'],
      ['Quantidade', null, '2'],
      ['Valor unitário', null, 'R$ 39,90'],
      ['Desconto', null, '12,5%'],
    ]);
    expect(lines(4)).toEqual([['Desconto', '—', 'R$ 5,00']]);
    expect(lines(6)).toEqual([
      ['Valor', null, 'R$ 60,00'],
      ['Forma de pagamento', null, 'Dinheiro'],
      ['Valor recebido', null, 'R$ 100,00'],
    ]);
    expect(lines(8)).toEqual([
      ['Subtotal', '—', 'R$ 55,00'],
      ['Total', '—', 'R$ 50,00'],
    ]);
  });

  it('gives the reason of a refund, a reopen or a cancel as the reason, not as a field', () => {
    expect(bySequence(7).reason).toBe('Motivo: Cobrado a mais');
    expect(bySequence(7).changes).toEqual([]);
    expect(bySequence(9).reason).toBe('Motivo: Faltou a gorjeta');
  });

  it("titles the appointment's attendance", () => {
    expect(eventTitle('ClientArrived')).toBe('Cliente chegou');
    expect(eventTitle('NoShowMarked')).toBe('Não compareceu');
    expect(eventTitle('NoShowUndone')).toBe("'Não compareceu' desfeito");
  });
});

/**
 * A comanda's stream as the server reads it now (query-api/src/history.rs `flatten`): a line's,
 * tip's or payment's fields scoped by its id (`payment 2.cents`), a Pix charge numbered as the
 * next payment, and the provider's word on it keyed by the provider's id alone.
 */
const pixCharged = (payment: number, galax: number, cents: number): HistoryEntry =>
  entry({
    Sequence: 0,
    Event: 'PixCharged',
    Changes: [
      { Field: `payment ${payment}.caixa_id`, From: null, To: 4 },
      { Field: `payment ${payment}.cents`, From: null, To: cents },
      { Field: `payment ${payment}.copy_paste`, From: null, To: '00020126580014br.gov.bcb.pix' },
      { Field: `payment ${payment}.galax_pay_id`, From: null, To: galax },
      { Field: `payment ${payment}.image`, From: null, To: 'https://pix.example/qr.png' },
      { Field: `payment ${payment}.page`, From: null, To: 'https://pix.example/p' },
      { Field: `payment ${payment}.payment_id`, From: null, To: payment },
      { Field: `payment ${payment}.status`, From: null, To: 'PENDING' },
    ],
  });

const scoped: HistoryEntry[] = [
  entry({
    Event: 'ComandaOpened',
    Changes: [
      { Field: 'client_id', From: null, To: 5 },
      { Field: 'company_id', From: null, To: 1 },
      {
        Field: 'items',
        From: null,
        To: [{ item_id: 1, kind: 'service', ref_id: 1, description: 'Corte de cabelo', professional_id: 3, quantity: 1, unit_cents: 5500 }],
      },
    ],
  }),
  entry({
    Event: 'ItemAdded',
    Changes: [
      { Field: 'item 2.description', From: null, To: 'Pomada' },
      { Field: 'item 2.item_id', From: null, To: 2 },
      { Field: 'item 2.kind', From: null, To: 'product' },
      { Field: 'item 2.quantity', From: null, To: 1 },
      { Field: 'item 2.ref_id', From: null, To: 7 },
      { Field: 'item 2.unit_cents', From: null, To: 3990 },
    ],
  }),
  entry({
    Event: 'TipAdded',
    Changes: [
      { Field: 'tip 1.cents', From: null, To: 1000 },
      { Field: 'tip 1.professional_id', From: null, To: 3 },
      { Field: 'tip 1.tip_id', From: null, To: 1 },
    ],
  }),
  entry({
    Event: 'PaymentTaken',
    Changes: [
      { Field: 'payment 1.caixa_id', From: null, To: 4 },
      { Field: 'payment 1.cents', From: null, To: 2000 },
      { Field: 'payment 1.method', From: null, To: 'cash' },
      { Field: 'payment 1.payment_id', From: null, To: 1 },
    ],
  }),
  pixCharged(2, 77, 4500),
  entry({
    Event: 'PixFailed',
    UserName: '',
    Role: null,
    Changes: [
      { Field: 'galax_pay_id', From: null, To: 77 },
      { Field: 'status', From: null, To: 'unavailablePix' },
    ],
  }),
  pixCharged(3, 78, 3000),
  entry({ Event: 'PixPaid', UserName: '', Role: null, Changes: [{ Field: 'galax_pay_id', From: 77, To: 78 }] }),
  entry({ Event: 'PaymentRefunded', Changes: [{ Field: 'payment 3.reason', From: null, To: 'Cobrado a mais' }] }),
  // Their ids are the ones they were added with: the events list nothing.
  entry({ Event: 'TipRemoved', Changes: [] }),
  entry({ Event: 'ItemRemoved', Changes: [] }),
  pixCharged(4, 79, 2500),
  entry({ Event: 'ComandaCanceled', Changes: [{ Field: 'reason', From: null, To: 'Cliente desistiu' }] }),
  entry({ Event: 'PixToRefund', UserName: '', Role: null, Changes: [{ Field: 'galax_pay_id', From: 78, To: 79 }] }),
].map((one, index) => ({ ...one, Sequence: index + 1 }));

describe("a comanda's Pix and its fields scoped by line, tip and payment", () => {
  const described = describeHistory(scoped, 'comanda', { professionals: { 3: 'Caio Líder' } });
  const bySequence = (sequence: number) => described.find((e) => e.key === sequence)!;
  const lines = (sequence: number) => bySequence(sequence).changes.map((c) => [c.label, c.from, nbsp(c.to)]);

  it('titles the Pix charge with its value and the provider’s word on it with the charge’s', () => {
    expect(described.map((e) => nbsp(e.title)).reverse()).toEqual([
      'Comanda aberta',
      'Item adicionado: Pomada',
      'Gorjeta adicionada: Caio Líder R$ 10,00',
      'Pagamento recebido: Dinheiro R$ 20,00',
      'Cobrança Pix de R$ 45,00',
      'Pix expirado ou recusado: R$ 45,00',
      'Cobrança Pix de R$ 30,00',
      'Pix recebido: R$ 30,00',
      'Estorno: Pix R$ 30,00',
      'Gorjeta removida: Caio Líder R$ 10,00',
      // Two lines are left: which one went, the event does not say.
      'Item removido',
      'Cobrança Pix de R$ 25,00',
      'Comanda cancelada',
      'Pix pago após o cancelamento: devolver R$ 25,00',
    ]);
    expect(bySequence(6).who).toBe('Sistema');
  });

  it("shows a charge's value and status, never its code, image or page, and the provider's reason in words", () => {
    expect(bySequence(5).created).toBe(true);
    expect(lines(5)).toEqual([
      ['Status', null, 'Aguardando pagamento'],
      ['Valor', null, 'R$ 45,00'],
    ]);
    expect(lines(6)).toEqual([['Status', null, 'Pix indisponível']]);
    expect(lines(8)).toEqual([]);
    expect(lines(14)).toEqual([]);
  });

  it('reads scoped lines, tips and payments like unscoped ones, and the reason of a refund', () => {
    expect(lines(2)).toEqual([
      ['Tipo', null, 'Produto'],
      ['Descrição', null, 'Pomada'],
      ['Quantidade', null, '1'],
      ['Valor unitário', null, 'R$ 39,90'],
    ]);
    expect(lines(3)).toEqual([
      ['Profissional', null, 'Caio Líder'],
      ['Valor', null, 'R$ 10,00'],
    ]);
    expect(lines(4)).toEqual([
      ['Valor', null, 'R$ 20,00'],
      ['Forma de pagamento', null, 'Dinheiro'],
    ]);
    expect(bySequence(9).reason).toBe('Motivo: Cobrado a mais');
    expect(bySequence(9).changes).toEqual([]);
    expect(bySequence(13).reason).toBe('Motivo: Cliente desistiu');
  });

  it('keeps the plain titles when the charge is not in the history read', () => {
    const alone = describeHistory(
      [
        entry({ Event: 'PixPaid', Changes: [{ Field: 'galax_pay_id', From: null, To: 90 }] }),
        entry({ Sequence: 2, Event: 'PixToRefund', Changes: [{ Field: 'galax_pay_id', From: 90, To: 91 }] }),
      ],
      'comanda',
    );
    expect(alone.map((e) => e.title)).toEqual(['Pix pago após o cancelamento: devolver', 'Pix recebido']);
    expect(eventTitle('PixCharged')).toBe('Cobrança Pix');
    expect(eventTitle('PixFailed')).toBe('Pix expirado ou recusado');
    expect(formatValue('status', 'TO_REFUND')).toBe('A devolver ao cliente');
    expect(formatValue('status', 'somethingNew')).toBe('somethingNew');
  });
});

describe('fallbacks', () => {
  it('reads unknown events, roles and fields as words, and any empty value as a dash', () => {
    expect(eventTitle('ClientArchived')).toBe('Client archived');
    expect(humanize('SOME_ROLE')).toBe('Some role');
    expect(roleLabel('SOME_ROLE')).toBe('Some role');
    expect(roleLabel(null)).toBe('Sistema');
    expect(fieldLabel('loyalty_points', 'client')).toBe('Loyalty points');
    for (const empty of [null, undefined, '', '  ']) expect(formatValue('anything', empty)).toBe(EMPTY);
    expect(formatValue('anything', true)).toBe('Sim');
    expect(formatValue('anything', false)).toBe('Não');
    expect(formatValue('anything', '2026-02-03')).toBe('03/02/2026');
    expect(formatValue('anything', '08:30:00')).toBe('08:30');
    expect(formatValue('anything', { a_b: 1 })).toBe('A b: 1');
  });
});
