import { describe, expect, it } from 'vitest';
import { appointment } from '@/test/agendaServer';
import { formatBRL } from '@/lib/money';
import { messageSummaryUrl } from './homeApi';
import {
  busyCells,
  confirmationRateText,
  confirmedText,
  dayBars,
  dayMonth,
  hasDayData,
  hasMonthData,
  hasReceivedData,
  hasReminderData,
  heatMap,
  homeUnit,
  hoursText,
  lowStockText,
  mayChooseAllUnits,
  mayReadReminders,
  methodBars,
  monthBars,
  monthText,
  nextAppointments,
  occupancyBars,
  occupancyDomainMax,
  occupancyText,
  percentText,
  periodDays,
  professionalReceivedBars,
  receivedDayBars,
  receivedText,
  reminderDayBars,
  seesOwnOnly,
  serviceBars,
  totalOccupancy,
} from './shaping';

describe('labels', () => {
  it('writes days as dd/mm, months as mmm/aa, rates and hours in pt-BR', () => {
    expect(dayMonth('2026-11-03')).toBe('03/11');
    expect(monthText('2026-11')).toBe('nov/26');
    expect(monthText('2027-03')).toBe('mar/27');
    expect(percentText(0.0909)).toBe('9,1%');
    expect(percentText(0)).toBe('0%');
    expect(percentText(null)).toBe('—');
    expect(hoursText(300)).toBe('5h');
    expect(hoursText(330)).toBe('5h30');
    expect(hoursText(45)).toBe('45min');
    expect(hoursText(0)).toBe('0min');
    expect(formatBRL(1078.8)).toBe('R$\u00a01.078,80');
  });
});

describe('appointments per day', () => {
  it("stacks confirmados, 'a confirmar' (booked less confirmed) and cancelados", () => {
    const bars = dayBars([
      { Date: '2026-11-23', Booked: 12, Confirmed: 4, Cancelled: 1, Attended: 0, NoShows: 0 },
      { Date: '2026-11-24', Booked: 0, Confirmed: 0, Cancelled: 0, Attended: 0, NoShows: 0 },
    ]);
    expect(bars).toEqual([
      { date: '2026-11-23', label: '23/11', confirmed: 4, toConfirm: 8, cancelled: 1 },
      { date: '2026-11-24', label: '24/11', confirmed: 0, toConfirm: 0, cancelled: 0 },
    ]);
    expect(hasDayData(bars)).toBe(true);
  });

  it('is empty when every day is zero, or there are no days', () => {
    expect(hasDayData(dayBars([{ Date: '2026-11-23', Booked: 0, Confirmed: 0, Cancelled: 0, Attended: 0, NoShows: 0 }]))).toBe(false);
    expect(hasDayData([])).toBe(false);
    expect(hasDayData(dayBars([{ Date: '2026-11-23', Booked: 0, Confirmed: 0, Cancelled: 2, Attended: 0, NoShows: 0 }]))).toBe(true);
  });
});

describe('occupancy', () => {
  const list = [
    { IdProfessional: 4, Name: 'Diego', Color: '#f59e0b', BookedMinutes: 300, WorkingMinutes: 480 },
    { IdProfessional: 5, Name: 'Eduardo', Color: '', BookedMinutes: 90, WorkingMinutes: 0 },
    { IdProfessional: 6, Name: 'Caio', Color: '#1565c0', BookedMinutes: 100, WorkingMinutes: 90 },
  ];

  it('is booked over working minutes in %, none without working minutes', () => {
    const bars = occupancyBars(list);
    expect(bars.map((bar) => bar.percent)).toEqual([62.5, null, 111.1]);
    expect(bars.map(occupancyText)).toEqual(['62,5%', '—', '111,1%']);
    expect(bars[0].color).toBe('#f59e0b');
    expect(bars[1].color).toBe('var(--color-muted)');
  });

  it('leaves out staff with neither working time nor bookings', () => {
    const admin = { IdProfessional: 1, Name: 'Ana', Color: '#9e9e9e', BookedMinutes: 0, WorkingMinutes: 0 };
    expect(occupancyBars([admin, ...list]).map((bar) => bar.id)).toEqual([4, 5, 6]);
    expect(occupancyBars([admin])).toEqual([]);
  });

  it('widens the axis past 100% only when someone is overbooked', () => {
    expect(occupancyDomainMax(occupancyBars(list.slice(0, 2)))).toBe(100);
    expect(occupancyDomainMax(occupancyBars(list))).toBe(120);
    expect(occupancyDomainMax([])).toBe(100);
  });

  it("sums the team's minutes for the mobile figure, '—' without working time", () => {
    expect(totalOccupancy(list)).toBeCloseTo(490 / 570);
    expect(percentText(totalOccupancy(list.slice(0, 1)))).toBe('62,5%');
    expect(percentText(totalOccupancy([list[1]]))).toBe('—');
    expect(percentText(totalOccupancy([]))).toBe('—');
  });
});

describe('revenue by service', () => {
  it('keeps the highest value first', () => {
    const bars = serviceBars([
      { IdService: 2, Description: 'Barba', Count: 6, Value: 270 },
      { IdService: 1, Description: 'Corte de cabelo', Count: 12, Value: 540 },
    ]);
    expect(bars.map((bar) => bar.name)).toEqual(['Corte de cabelo', 'Barba']);
    expect(bars[0]).toEqual({ id: 1, name: 'Corte de cabelo', count: 12, value: 540 });
  });
});

describe('received', () => {
  const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');
  const days = ['2026-11-23', '2026-11-24', '2026-11-25'].map((Date) => ({ Date, Booked: 0, Confirmed: 0, Cancelled: 0, Attended: 0, NoShows: 0 }));

  it('has a column for every day of the period, zero where nothing was received', () => {
    const bars = receivedDayBars(days, [
      { Date: '2026-11-25', Value: 450 },
      { Date: '2026-11-23', Value: 800.5 },
    ]);
    expect(bars).toEqual([
      { date: '2026-11-23', label: '23/11', received: 800.5 },
      { date: '2026-11-24', label: '24/11', received: 0 },
      { date: '2026-11-25', label: '25/11', received: 450 },
    ]);
    expect(hasReceivedData(bars)).toBe(true);
    expect(hasReceivedData(receivedDayBars(days, []))).toBe(false);
    expect(hasReceivedData(receivedDayBars([], []))).toBe(false);
    // A received day the period's days do not list is still shown, in its place.
    expect(receivedDayBars(days.slice(0, 1), [{ Date: '2026-11-22', Value: 10 }]).map((bar) => bar.label)).toEqual(['22/11', '23/11']);
  });

  it('names the methods in pt-BR, highest first, the desk order when equal, with their share of the total', () => {
    const bars = methodBars([
      { Key: 'subscription', Value: 100 },
      { Key: 'debit', Value: 100 },
      { Key: 'cash', Value: 350 },
      { Key: 'pix', Value: 600 },
      { Key: 'credit', Value: 0 },
    ]);
    expect(bars.map((bar) => bar.name)).toEqual(['Pix', 'Dinheiro', 'Cartão de débito', 'Assinatura']);
    expect(bars.map((bar) => bar.value)).toEqual([600, 350, 100, 100]);
    expect(bars.reduce((sum, bar) => sum + (bar.share ?? 0), 0)).toBeCloseTo(1);
    expect(nbsp(receivedText(bars[0]))).toBe('R$ 600,00 (52,2%)');
    expect(methodBars([{ Key: 'credit', Value: 10 }])[0]).toMatchObject({ name: 'Cartão de crédito', share: 1 });
    // A method this screen does not know keeps its code, after the known ones when equal.
    expect(methodBars([{ Key: 'boleto', Value: 5 }, { Key: 'cash', Value: 5 }]).map((bar) => bar.name)).toEqual(['Dinheiro', 'boleto']);
    expect(methodBars([])).toEqual([]);
  });

  it("names each professional as the occupancy does, in their colour, or by number when it does not list them", () => {
    const occupancy = [
      { IdProfessional: 4, Name: 'Diego', Color: '#f59e0b', BookedMinutes: 300, WorkingMinutes: 480 },
      { IdProfessional: 5, Name: 'Eduardo', Color: '', BookedMinutes: 0, WorkingMinutes: 0 },
    ];
    const bars = professionalReceivedBars(
      [
        { Key: '9', Value: 50 },
        { Key: '5', Value: 500 },
        { Key: '4', Value: 700 },
      ],
      occupancy,
    );
    expect(bars.map((bar) => [bar.key, bar.name, bar.value])).toEqual([
      ['4', 'Diego', 700],
      ['5', 'Eduardo', 500],
      ['9', 'Profissional n.º 9', 50],
    ]);
    expect(bars[0].color).toBe('#f59e0b');
    expect(bars[1].color).toBe('#6b7280');
    expect(bars.map((bar) => percentText(bar.share))).toEqual(['56%', '40%', '4%']);
    // Equal sums read by name.
    const tied = professionalReceivedBars([{ Key: '5', Value: 10 }, { Key: '4', Value: 10 }], occupancy);
    expect(tied.map((bar) => bar.name)).toEqual(['Diego', 'Eduardo']);
  });

  it('has no share when what was received nets to nothing', () => {
    const [bar] = methodBars([{ Key: 'cash', Value: -20 }]);
    expect(bar.share).toBeNull();
    expect(nbsp(receivedText(bar))).toBe('-R$ 20,00');
  });
});

describe('busy hours', () => {
  it('lays weekdays Monday first over 8h to 18h, with intensity relative to the busiest cell', () => {
    const map = heatMap([
      { Weekday: 1, Hour: 9, Count: 4 },
      { Weekday: 0, Hour: 10, Count: 1 },
    ]);
    expect(map.hours).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(map.rows.map((row) => row.label)).toEqual(['Seg', 'Ter', 'Qua', 'Qui', 'Sex', 'Sab', 'Dom']);
    expect(map.max).toBe(4);
    const monday9 = map.rows[0].cells[1];
    expect(monday9).toMatchObject({ weekday: 1, hour: 9, count: 4, intensity: 1, text: 'Segunda-feira, 9h: 4 agendamentos' });
    expect(map.rows[6].cells[2]).toMatchObject({ count: 1, intensity: 0.25, text: 'Domingo, 10h: 1 agendamento' });
    expect(map.rows[2].cells[0]).toMatchObject({ count: 0, intensity: 0 });
    expect(busyCells(map).map((cell) => [cell.weekday, cell.hour, cell.count])).toEqual([
      [1, 9, 4],
      [0, 10, 1],
    ]);
  });

  it('stretches to early and late hours that have appointments', () => {
    const map = heatMap([
      { Weekday: 3, Hour: 7, Count: 1 },
      { Weekday: 3, Hour: 21, Count: 2 },
    ]);
    expect(map.hours[0]).toBe(7);
    expect(map.hours.at(-1)).toBe(21);
  });

  it('is empty without appointments', () => {
    const map = heatMap([]);
    expect(map.max).toBe(0);
    expect(busyCells(map)).toEqual([]);
    expect(map.rows.every((row) => row.cells.every((cell) => cell.intensity === 0))).toBe(true);
  });
});

describe('club months', () => {
  it('labels each month and is empty when nothing was received or is due', () => {
    const bars = monthBars([
      { Month: '2026-10', Received: 0, ToReceive: 0 },
      { Month: '2026-11', Received: 500, ToReceive: 300 },
    ]);
    expect(bars[1]).toEqual({ month: '2026-11', label: 'nov/26', received: 500, toReceive: 300 });
    expect(hasMonthData(bars)).toBe(true);
    expect(hasMonthData(bars.slice(0, 1))).toBe(false);
  });
});

describe('roles and units', () => {
  it("offers 'Todas as unidades' to ADMIN and ATTENDANT with several units", () => {
    expect(mayChooseAllUnits('ADMIN', 2)).toBe(true);
    expect(mayChooseAllUnits('ATTENDANT', 3)).toBe(true);
    expect(mayChooseAllUnits('ADMIN', 1)).toBe(false);
    expect(mayChooseAllUnits('BARBER_LEADE', 2)).toBe(false);
    expect(seesOwnOnly('ADMIN')).toBe(false);
    expect(seesOwnOnly('BARBER1')).toBe(true);
    expect(seesOwnOnly('DEFAULT')).toBe(true);
  });

  it("opens the home on the unit last chosen while it is the user's, else on every unit when allowed (issue 45)", () => {
    const units = [{ IdCompany: 1 }, { IdCompany: 2 }];
    const shell = { IdCompany: 1 };
    // A first visit: every unit, or the shell's unit for those who may not see them all.
    expect(homeUnit(undefined, true, units, shell)).toBe('');
    expect(homeUnit(undefined, false, units, shell)).toBe('1');
    // The last choice.
    expect(homeUnit('2', true, units, shell)).toBe('2');
    expect(homeUnit('2', false, units, shell)).toBe('2');
    expect(homeUnit('', true, units, shell)).toBe('');
    // Every unit, no longer allowed (one unit left, or another role): the shell's.
    expect(homeUnit('', false, units, shell)).toBe('1');
    // A unit that is no longer the user's.
    expect(homeUnit('5', true, units, shell)).toBe('');
    expect(homeUnit('5', false, units, shell)).toBe('1');
    expect(homeUnit(undefined, false, [], null)).toBe('');
  });
});

describe('next appointments', () => {
  const day = '2026-11-24';
  const items = [
    appointment(1, { StartTime: '09:00:00' }),
    appointment(2, { StartTime: '14:00:00' }),
    appointment(3, { StartTime: '10:30:00' }),
    appointment(4, { StartTime: '11:00:00', Status: false }),
    appointment(5, { StartTime: '12:00:00', Date: '2026-11-25' }),
    ...[15, 16, 17, 18].map((hour, i) => appointment(10 + i, { StartTime: `${hour}:00:00` })),
  ];

  it('lists the booked ones of today from the current minute, earliest first, at most five', () => {
    const next = nextAppointments(items, day, 10 * 60 + 30);
    expect(next.map((item) => item.IdScheduling)).toEqual([3, 2, 10, 11, 12]);
  });

  it('is empty once the day is over', () => {
    expect(nextAppointments(items, day, 23 * 60)).toEqual([]);
  });
});

describe('low stock (issue 43)', () => {
  it("writes a product below its minimum as the stock's screen does", () => {
    expect(lowStockText({ Quantity: 2, Minimum: 5, Unit: 'un' })).toBe('Qtd 2 / mín. 5 un');
    expect(lowStockText({ Quantity: -1, Minimum: 1500, Unit: 'ml' })).toBe('Qtd \u22121 / mín. 1.500 ml');
  });
});

describe("reminders' confirmation (issue 44)", () => {
  it('reads the days of each period as GET dashboard counts them', () => {
    // Tuesday 24 November 2026.
    expect(periodDays('today', '2026-11-24')).toEqual({ start: '2026-11-24', end: '2026-11-24' });
    expect(periodDays('week', '2026-11-24')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    // A Sunday ends its week; a Monday starts it.
    expect(periodDays('week', '2026-11-29')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(periodDays('week', '2026-11-30')).toEqual({ start: '2026-11-30', end: '2026-12-06' });
    expect(periodDays('30d', '2026-11-24')).toEqual({ start: '2026-10-26', end: '2026-11-24' });
  });

  it('writes the rate in pt-BR and how many of those sent were confirmed', () => {
    expect(confirmationRateText(33.3)).toBe('33,3%');
    expect(confirmationRateText(100)).toBe('100%');
    expect(confirmationRateText(0)).toBe('0%');
    expect(confirmationRateText(null)).toBe('—');
    expect(confirmedText({ Sent: 3, Confirmed: 1 })).toBe('1 de 3 confirmados');
    expect(confirmedText({ Sent: 1, Confirmed: 1 })).toBe('1 de 1 confirmado');
    expect(confirmedText({ Sent: 0, Confirmed: 0 })).toBe('Nenhum lembrete enviado.');
  });

  it('draws every day of the period, zero on the days without messages', () => {
    const zero = { Sent: 0, Delivered: 0, Read: 0, Failed: 0, Skipped: 0, Confirmed: 0, Cancelled: 0, ConfirmationRate: null };
    const bars = reminderDayBars(
      [
        { ...zero, Date: '2026-11-23', Sent: 4, Confirmed: 2, ConfirmationRate: 50 },
        { ...zero, Date: '2026-11-25', Sent: 1, Confirmed: 0, ConfirmationRate: 0 },
      ],
      '2026-11-23',
      '2026-11-29',
    );
    expect(bars.map((bar) => [bar.label, bar.sent, bar.confirmed])).toEqual([
      ['23/11', 4, 2],
      ['24/11', 0, 0],
      ['25/11', 1, 0],
      ['26/11', 0, 0],
      ['27/11', 0, 0],
      ['28/11', 0, 0],
      ['29/11', 0, 0],
    ]);
    expect(hasReminderData(bars)).toBe(true);
    expect(hasReminderData(reminderDayBars([], '2026-11-23', '2026-11-29'))).toBe(false);
  });

  it("asks for the period's days, of one unit or of all", () => {
    expect(messageSummaryUrl({ idCompany: 2, start: '2026-10-26', end: '2026-11-24' })).toBe(
      'message/summary?idCompany=2&start=2026-10-26&end=2026-11-24',
    );
    expect(messageSummaryUrl({ idCompany: null, start: '2026-11-24', end: '2026-11-24' })).toBe(
      'message/summary?start=2026-11-24&end=2026-11-24',
    );
  });

  it('is asked for by ADMIN only (the others would get 403)', () => {
    const roles = ['ADMIN', 'ATTENDANT', 'BARBER_LEADE', 'BARBER1', 'BARBER2', 'DEFAULT', null] as const;
    expect(roles.filter(mayReadReminders)).toEqual(['ADMIN']);
  });
});
