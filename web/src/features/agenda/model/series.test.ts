import { describe, expect, it } from 'vitest';
import {
  CHANGE_SERIES_TITLE,
  CLASHES_MESSAGE,
  CONTINUE_LABEL,
  SERIES_SCOPES,
  COUNT_MESSAGE,
  EVERY_WEEKS_MESSAGE,
  FREQUENCIES,
  TOO_FEW_MESSAGE,
  TOO_LONG_MESSAGE,
  UNTIL_REQUIRED_MESSAGE,
  UNTIL_TOO_SOON_MESSAGE,
  VERIFY_FIRST_MESSAGE,
  bookSeriesLabel,
  bookingBlock,
  changeSeriesText,
  chosenTimes,
  defaultUntil,
  durationOf,
  formKey,
  freeStarts,
  initialRepeat,
  keptRows,
  occurrencesToBook,
  planRepeat,
  repeatErrorsOf,
  rowsOf,
  scopeParam,
  seriesBadgeText,
  seriesBody,
  seriesBookedMessage,
  seriesCancelledMessage,
  seriesChangeRequest,
  seriesChangedMessage,
  seriesDates,
  seriesDayLabel,
  seriesRepeatText,
  untilOf,
  wizardPayload,
  workingStarts,
  type RepeatForm,
  type SeriesRow,
} from './series';
import type { SchedulingPayload, WorkingDay } from './types';

const FIRST = '2026-12-01';
const repeat = (change: Partial<RepeatForm>): RepeatForm => ({ ...initialRepeat, ...change });

describe('how a series repeats (as the server checks it)', () => {
  it('falls every N weeks, a number of times or until a day', () => {
    expect(planRepeat(repeat({ everyWeeks: 2, count: '4' }), FIRST)).toEqual({
      repeat: { everyWeeks: 2, count: 4 },
      dates: ['2026-12-01', '2026-12-15', '2026-12-29', '2027-01-12'],
    });
    // Until a day: every occurrence on or before it.
    expect(planRepeat(repeat({ end: 'UNTIL', until: '2026-12-21' }), FIRST)).toEqual({
      repeat: { everyWeeks: 1, until: '2026-12-21' },
      dates: ['2026-12-01', '2026-12-08', '2026-12-15'],
    });
    // Six months of weeks is the most.
    const most = planRepeat(repeat({ count: '26' }), FIRST);
    expect('dates' in most && most.dates.length).toBe(26);
    expect(seriesDates('2026-12-29', 1, 2)).toEqual(['2026-12-29', '2027-01-05']);
  });

  it('starts weekly, 4 times, and the end date about three months on', () => {
    expect(initialRepeat).toEqual({ everyWeeks: 1, end: 'COUNT', count: '4', until: null });
    expect(defaultUntil(FIRST)).toBe('2027-03-02');
    expect(untilOf(repeat({}), FIRST)).toBe('2027-03-02');
    expect(untilOf(repeat({ until: '2027-01-05' }), FIRST)).toBe('2027-01-05');
    const plan = planRepeat(repeat({ end: 'UNTIL' }), FIRST);
    expect('dates' in plan && plan.dates.length).toBe(14);
  });

  it('says what is wrong with the server’s messages', () => {
    const cases: [RepeatForm, Record<string, string>][] = [
      [repeat({ everyWeeks: 0 }), { everyWeeks: EVERY_WEEKS_MESSAGE }],
      [repeat({ everyWeeks: 9 }), { everyWeeks: EVERY_WEEKS_MESSAGE }],
      [repeat({ count: '1' }), { count: COUNT_MESSAGE }],
      [repeat({ count: '27' }), { count: COUNT_MESSAGE }],
      [repeat({ count: '3.5' }), { count: COUNT_MESSAGE }],
      [repeat({ count: '' }), { count: UNTIL_REQUIRED_MESSAGE }],
      [repeat({ end: 'UNTIL', until: '' }), { until: UNTIL_REQUIRED_MESSAGE }],
      [repeat({ end: 'UNTIL', everyWeeks: 2, until: '2026-12-10' }), { until: UNTIL_TOO_SOON_MESSAGE }],
      // Before the first date: no repetition either.
      [repeat({ end: 'UNTIL', until: '2026-11-20' }), { until: UNTIL_TOO_SOON_MESSAGE }],
      [repeat({ end: 'UNTIL', until: '2027-07-01' }), { until: TOO_LONG_MESSAGE }],
      [repeat({ everyWeeks: 8, count: '26' }), { count: TOO_LONG_MESSAGE }],
    ];
    for (const [form, errors] of cases) expect(planRepeat(form, FIRST)).toEqual({ errors });
    // 183 days on is still allowed; 184 is not.
    expect('dates' in planRepeat(repeat({ end: 'UNTIL', until: '2027-06-02' }), FIRST)).toBe(true);
    expect(planRepeat(repeat({ end: 'UNTIL', until: '2027-06-03' }), FIRST)).toEqual({ errors: { until: TOO_LONG_MESSAGE } });
  });

  it("puts the server's 422 under the field in use", () => {
    expect(repeatErrorsOf({ 'repeat.count': UNTIL_REQUIRED_MESSAGE, idUser: 'Informe o cliente.' }, 'UNTIL')).toEqual({
      fields: { until: UNTIL_REQUIRED_MESSAGE },
      other: ['Informe o cliente.'],
    });
    expect(repeatErrorsOf({ 'repeat.count': COUNT_MESSAGE, 'repeat.everyWeeks': EVERY_WEEKS_MESSAGE }, 'COUNT').fields).toEqual({
      count: COUNT_MESSAGE,
      everyWeeks: EVERY_WEEKS_MESSAGE,
    });
    expect(repeatErrorsOf(undefined, 'COUNT')).toEqual({ fields: {}, other: [] });
  });
});

describe('the bodies', () => {
  const state = {
    hour: { start: '14:15', end: '14:45', idProfessional: 4 },
    client: { IdUser: 1, Name: 'Rafael Araújo' },
    date: FIRST,
    serviceIds: [4, 1],
    observation: '  Primeira visita ',
    timesType: 'ONLY_AVAILABLES' as const,
  };
  const form: SchedulingPayload = {
    idCompanyProfessional: 7,
    date: FIRST,
    startTime: '14:15',
    endTime: '14:45',
    idServices: [4, 1],
    idUser: 1,
    observation: 'Primeira visita',
    timesType: 'ONLY_AVAILABLES',
  };

  it("builds the wizard's appointment form, without timesType for the mobile flow", () => {
    expect(wizardPayload(state, 7)).toEqual(form);
    const { timesType: _omitted, ...mobile } = form;
    expect(wizardPayload(state, 7, false)).toEqual(mobile);
    expect(wizardPayload({ ...state, hour: null }, 7)).toBeNull();
    expect(wizardPayload({ ...state, client: null }, 7)).toBeNull();
    expect(wizardPayload({ ...state, serviceIds: [] }, 7)).toBeNull();
    expect(wizardPayload(state, undefined)).toBeNull();
    expect(durationOf(form)).toBe(30);
  });

  it('adds the repetition and the occurrences', () => {
    expect(seriesBody(form, { everyWeeks: 1, count: 4 })).toEqual({ ...form, repeat: { everyWeeks: 1, count: 4 } });
    expect(seriesBody(form, { everyWeeks: 2, until: '2027-01-12' }, [{ date: FIRST, startTime: '14:15' }])).toEqual({
      ...form,
      repeat: { everyWeeks: 2, until: '2027-01-12' },
      occurrences: [{ date: FIRST, startTime: '14:15' }],
    });
    // The services' order and the notes do not change what was checked.
    expect(formKey({ ...form, idServices: [1, 4], observation: '' })).toBe(formKey(form));
    expect(formKey({ ...form, startTime: '15:00' })).not.toBe(formKey(form));
  });
});

describe('the checked dates', () => {
  const answer = [
    { Date: '2026-12-01', StartTime: '14:15', EndTime: '14:45', Free: true, Reason: null },
    { Date: '2026-12-08', StartTime: '14:15', EndTime: '14:45', Free: false, Reason: 'Horário indisponível.' },
    { Date: '2026-12-15', StartTime: '16:00', EndTime: '16:30', Free: true, Reason: null },
    { Date: '2026-12-22', StartTime: '23:45', EndTime: null, Free: false, Reason: 'O atendimento precisa terminar até 23:59' },
  ];

  it('keeps what the desk skipped across checks', () => {
    const rows = rowsOf(answer);
    expect(rows.map((row) => [row.date, row.startTime, row.endTime, row.free, row.reason, row.skipped])).toEqual([
      ['2026-12-01', '14:15', '14:45', true, null, false],
      ['2026-12-08', '14:15', '14:45', false, 'Horário indisponível.', false],
      ['2026-12-15', '16:00', '16:30', true, null, false],
      ['2026-12-22', '23:45', null, false, 'O atendimento precisa terminar até 23:59', false],
    ]);
    const skipped = rows.map((row) => (row.date === '2026-12-22' ? { ...row, skipped: true } : row));
    expect(rowsOf(answer, skipped).map((row) => row.skipped)).toEqual([false, false, false, true]);
  });

  it('sends the times chosen instead of the form’s, for the dates still in the series', () => {
    const rows = rowsOf(answer);
    expect(chosenTimes(rows, '14:15', ['2026-12-01', '2026-12-08', '2026-12-15', '2026-12-22'])).toEqual([
      { date: '2026-12-15', startTime: '16:00' },
      { date: '2026-12-22', startTime: '23:45' },
    ]);
    expect(chosenTimes(rows, '14:15', ['2026-12-01', '2026-12-08', '2026-12-15'])).toEqual([{ date: '2026-12-15', startTime: '16:00' }]);
  });

  it('books exactly the dates kept, once every one of them is free and there are two', () => {
    const rows = rowsOf(answer);
    expect(bookingBlock(null)).toBe(VERIFY_FIRST_MESSAGE);
    expect(bookingBlock(rows)).toBe(CLASHES_MESSAGE);
    const skip = (list: SeriesRow[], ...dates: string[]) => list.map((row) => (dates.includes(row.date) ? { ...row, skipped: true } : row));
    const kept = skip(rows, '2026-12-08', '2026-12-22');
    expect(bookingBlock(kept)).toBeNull();
    expect(keptRows(kept)).toHaveLength(2);
    expect(occurrencesToBook(kept)).toEqual([
      { date: '2026-12-01', startTime: '14:15' },
      { date: '2026-12-15', startTime: '16:00' },
    ]);
    expect(bookingBlock(skip(kept, '2026-12-15'))).toBe(TOO_FEW_MESSAGE);
  });
});

describe('other times for a date that clashes', () => {
  it("offers the professional's free starts that day, but the one that clashes", () => {
    const day = {
      shortDate: '2026-12-08',
      freeHours: [
        { start: '16:00', end: '16:30', idProfessional: 4 },
        { start: '09:00', end: '09:30', idProfessional: 4 },
        { start: '10:00', end: '10:30', idProfessional: 3 },
        { start: '14:15', end: '14:45', idProfessional: 4 },
      ],
    };
    expect(freeStarts(day, 4, '14:15')).toEqual(['09:00', '16:00']);
    expect(freeStarts(undefined, 4, '14:15')).toEqual([]);
  });

  it('beyond the free times, the starts that fit the working periods on a 15-minute grid', () => {
    const day: WorkingDay = {
      Date: '2027-02-02',
      Opening: { Start: '09:00', End: '21:00' },
      Holidays: [],
      Professionals: [
        { IdProfessional: 4, Working: [{ Start: '09:00', End: '10:00' }, { Start: '18:10', End: '19:00' }] },
        { IdProfessional: 5, Working: [] },
      ],
    };
    expect(workingStarts(day, 4, 30, 'ONLY_AVAILABLES', '09:15')).toEqual(['09:00', '09:30', '18:15', '18:30']);
    expect(workingStarts(day, 5, 30, undefined, '')).toEqual([]);
    expect(workingStarts(day, 5, 60, 'ALL_TIMES', '').slice(0, 2)).toEqual(['09:00', '09:15']);
    expect(workingStarts(day, 5, 60, 'ALL_TIMES', '').at(-1)).toBe('20:00');
    expect(workingStarts(undefined, 4, 30, null, '')).toEqual([]);
  });
});

describe('the texts', () => {
  it('names dates, frequencies, the button, the badge and the toasts', () => {
    expect(seriesDayLabel('2027-01-05')).toBe('ter., 05/01/2027');
    expect(seriesDayLabel('2026-11-29')).toBe('dom., 29/11/2026');
    expect(seriesDayLabel('2026-12-05')).toBe('sáb., 05/12/2026');
    expect(FREQUENCIES.map((option) => option.label)).toEqual([
      'Toda semana',
      'A cada 2 semanas',
      'A cada 3 semanas',
      'A cada 4 semanas',
      'A cada 5 semanas',
      'A cada 6 semanas',
      'A cada 7 semanas',
      'A cada 8 semanas',
    ]);
    expect(bookSeriesLabel(4)).toBe('Agendar série (4)');
    expect(seriesBookedMessage(3)).toBe('Série agendada: 3 agendamentos.');
    expect(seriesBadgeText({ Index: 3, Count: 4 })).toBe('Série 3/4');
    expect(seriesRepeatText(1)).toBe('Repete toda semana');
    expect(seriesRepeatText(2)).toBe('Repete a cada 2 semanas');
    expect([0, 1, 2].map(seriesCancelledMessage)).toEqual([
      'Nenhum agendamento cancelado.',
      '1 agendamento cancelado.',
      '2 agendamentos cancelados.',
    ]);
    expect([scopeParam('FOLLOWING'), scopeParam('ALL')]).toEqual(['following', 'all']);
  });
});

describe("changing a series' appointments", () => {
  /** The single edit's body, as the wizard or a grid move sends it. */
  const payload = {
    idCompanyProfessional: 7,
    date: '2026-12-02',
    startTime: '15:00',
    endTime: '15:30',
    idServices: [1, 4],
    idUser: 3,
    observation: 'Máquina 2',
    timesType: 'ONLY_AVAILABLES' as const,
  };

  it('sends the single edit\'s body, reprice included, to PUT scheduling/{id}/series with the scope', () => {
    expect(seriesChangeRequest({ id: 41, scope: 'FOLLOWING', payload: { ...payload, reprice: true } })).toEqual({
      url: 'scheduling/41/series?scope=following',
      method: 'PUT',
      body: { ...payload, reprice: true },
    });
    expect(seriesChangeRequest({ id: 41, scope: 'ALL', payload })).toEqual({
      url: 'scheduling/41/series?scope=all',
      method: 'PUT',
      body: payload,
    });
  });

  it("never sends 'Agendar mesmo assim': the series' change has no allowClientOverlap", () => {
    const { body } = seriesChangeRequest({ id: 41, scope: 'ALL', payload: { ...payload, allowClientOverlap: true } });
    expect(body).toEqual(payload);
    expect(body).not.toHaveProperty('allowClientOverlap');
  });

  it("names the question, its choices and the toast", () => {
    expect(CHANGE_SERIES_TITLE).toBe('Alterar série');
    expect(changeSeriesText({ Index: 2, Count: 4 })).toBe('Este agendamento faz parte de uma série (Série 2/4).');
    expect(SERIES_SCOPES.map((option) => option.label)).toEqual(['Somente este', 'Este e os seguintes', 'Todos']);
    expect(CONTINUE_LABEL).toBe('Continuar');
    expect([0, 1, 3].map(seriesChangedMessage)).toEqual([
      'Nenhum agendamento alterado.',
      '1 agendamento alterado.',
      '3 agendamentos alterados.',
    ]);
  });
});
